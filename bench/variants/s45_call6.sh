# Session 45, call 6 (~5 min): the landed tree's binaries (3e03c89 + the shared every-k gate in
# tile_store.cuh + sm90_tf32 in GpuDetect's kernels): test_gpu's Detect suites (now with precision
# tf32's sm90_tf32: noise, NaN, Inf), the lost-element suites under Detect, test_gpu_16bit's
# Detect suites, memcheck on the small kernels' Detect tests, fp32 Detect at small n (the
# refactor changes no time). build-carry/s45e.tar.xz.
# Predicted: all pass; fp32 Detect 896 ~0.027, 1024 ~0.032 ms as in session 44.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45e.tar.xz -C /tmp/v
V=/tmp/v/s45e
L=$OUT/run.txt
timeout 240 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:*LostElements*Detect*' > $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests.txt | head -20 >> $L
timeout 120 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests16.txt | head -12 >> $L
TRIMM_TEST_MAX_N=1300 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu --gtest_filter='GpuDetectPinned.TheSmallKernels*' > $OUT/san.txt 2>&1
echo "fp32 small-kernel memcheck rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
for round in 1 2; do
  timeout 60 $V/trimm bench --sizes 512,896,1024,1216 --structure detect 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
