# Session 46, device call 5: 16-bit Detect before sm90_16bit scans the other triangles alone
# (half the bytes); sm90_16bit flags its outputs that are not finite (kNonFiniteOut) and
# sm80_16bit's dense launch too. build-carry/s46e (the working tree) against s46d (call 4's).
# carry ["build-carry", ".deps/openblas"].
# Predicted: tests pass, memcheck clean; bf16 Detect 4096 0.0975 -> ~0.086 ms (32 of the scan's
# 64 MB, ~11 µs at its ~2.8 TB/s), 8192 0.478 -> ~0.43, 1024-2048 -2…-4 µs.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s46d s46e; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
V=/tmp/v/s46e
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -30 >> $L
F='Inputs/GpuDetect16.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n129:Inputs/GpuDetect16.EqualsTheDenseProductsTriangle/nonfinite_lower_n1000:GpuDetect16Gate.*'
TRIMM_TEST_MAX_N=1000 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter="$F" > $OUT/san16.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san16.txt | tr '\n' ' ')" >> $L
for run in "s46d bf16" "s46e bf16" "s46e fp16" "s46d bf16" "s46e bf16"; do
  set -- $run
  echo "== $1 $2" >> $L
  timeout 60 /tmp/v/$1/trimm bench --sizes 1024,2048,4096,8192 --dtype $2 --structure both 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
