# Session 40, call 6 (~5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40f.tar.xz:
# alt/trimm (9861fc6) and c2/trimm + c2/test_gpu_16bit (alt + bench/variants/s40_cover2.patch:
# at each unit switch the new unit's second stage is issued before the old unit's epilogue).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40f.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/c2/test_gpu_16bit
timeout 150 $T --gtest_filter='AllKernels/*sm90_16bit*n4097:AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n2560:AllKernels/*sm90_16bit*n1000:AllKernels/*IntegerInputsExact*sm90_16bit*:WidePairs/*PaddedLeading*n5500' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED" $OUT/tests.txt | head -20 >> $L; grep -c "OK \]" $OUT/tests.txt >> $L
# Predict: c2 −0.5…−1.5 µs at 4096 (three switches a block, ~700 cycles of tensor idle each).
for r in 1 2 3; do for v in alt c2; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 2560,3072,4096,5120,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
for t in 'AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' 'AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_lower_n2560'; do
  for tool in memcheck racecheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="$t" > /tmp/san.txt 2>&1
    echo "$tool $t rc $?" >> $L; tail -1 /tmp/san.txt >> $L
  done
done
cat $L
