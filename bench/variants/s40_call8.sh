# Session 40, call 8 (~7 min). Carry ["build-carry"]; build-carry/s40h.tar.xz: alt/test_gpu_16bit
# (0cb310f + bench/variants/s40_alt_ranks.patch, the kernels of the landed 9861fc6). The pair
# layout's rank assignment changed for every n from 3072 to 8192: the wide pair suites first.
mkdir -p /tmp/v && tar -xJf build-carry/s40h.tar.xz -C /tmp/v
T=/tmp/v/alt/test_gpu_16bit
timeout 420 $T --gtest_filter='WidePairs/*:AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4096:AllKernels/*sm90_16bit*n4097' > $OUT/tests.txt 2>&1
echo "rc $?" > $OUT/run.txt
grep -c "OK \]" $OUT/tests.txt >> $OUT/run.txt; grep -c "FAILED \]" $OUT/tests.txt >> $OUT/run.txt
grep -E "FAILED|PASSED" $OUT/tests.txt | head >> $OUT/run.txt
cat $OUT/run.txt
