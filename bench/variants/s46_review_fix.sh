# Session 46, device call 6: the review's fix (the flag word a launch is gated on never changes
# while it runs: the structured gate ignores kNonFiniteOut, sm80_16bit's dense launch flags
# kNonFiniteDense, which only the exact launch reads; flag_nonfinite through the call's epoch) and
# the tests the review asked for (GpuDetect16Pinned.Sm90ScanReadsTheOtherTrianglesAlone,
# GpuDetectPinned.Fp16x3ScansLongRowsWhole). build-carry/s46f. carry ["build-carry", ".deps/openblas"].
# Predicted: all pass, memcheck clean, bf16 Detect times as call 5.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s46f.tar.xz -C /tmp/v && tar -xJf build-carry/s46d.tar.xz -C /tmp/v
V=/tmp/v/s46f
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -30 >> $L
timeout 150 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*' > $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests.txt | head -30 >> $L
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.Sm90*' > $OUT/san16.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san16.txt | tr '\n' ' ')" >> $L
for bin in s46d s46f; do
  echo "== $bin" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --sizes 2048,4096,8192 --dtype bf16 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v reference >> $L
done
cat $L
