# Session 39, call 6 (~3 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39f.tar.xz
# holds own/trimm and own/test_gpu_16bit (f976d45's kernels + bench/variants/
# s39_pair_own_first.patch: the pair prologue issues each block's own loads of the first
# stages before the cluster barrier, only the multicast halves after it) and fin2/trimm.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39f.tar.xz -C /tmp/v
T=/tmp/v/own/test_gpu_16bit L=$OUT/run.txt
timeout 150 $T --gtest_filter='AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4097:WidePairs/*PaddedLeadingDimensions*n5500' > /tmp/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED" /tmp/tests.txt >> $L; grep -c "OK \]" /tmp/tests.txt >> $L
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $L
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' > /tmp/san.txt 2>&1; echo "rc $?" >> $L
  grep SUMMARY /tmp/san.txt >> $L; done
# Predict: own −0.3…−0.8 µs against fin2 at 3072-5120, less at 6144.
for r in 1 2 3; do for v in fin2 own; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,5120,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
