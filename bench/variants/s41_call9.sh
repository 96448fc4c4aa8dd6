# Session 41, call 9 (~2.5 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41i (pb:
# alt with the pair kernel's loads issued by two threads, Upper only: the producer (warp 8) A and
# the expect_tx, helper warp 9's lane 0 B's two boxes, each waiting on `empty`; the mirrors
# zeroed by warps 10-11; plus its test_gpu_16bit). Calls 2-8: the producer's work a slot shows in
# the time. Predict −0.5…−2 µs at 4096 if its issue is on the path, ±0.3 if not (anm = alt,
# call 4, says four TMA issues a slot cost no more than three).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a i; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
T=/tmp/v/pb/test_gpu_16bit
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n4097' > $OUT/synccheck.txt 2>&1
echo "synccheck rc $?" >> $L; grep -m3 -E "ERROR SUMMARY|PASSED|FAILED" $OUT/synccheck.txt >> $L
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' > /tmp/san.txt 2>&1
echo "racecheck rc $?" >> $L; tail -1 /tmp/san.txt >> $L
timeout 90 $T --gtest_filter='AllKernels/*sm90_16bit*upper_n3072:AllKernels/*sm90_16bit*upper_n4097:WidePairs/*IntegerInputsExact*upper*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
for r in 1 2 3; do for v in alt pb; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
