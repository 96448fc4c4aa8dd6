# Prepared in session 51 for the next device session (~8-9 min, every run time-boxed).
# carry ["build-carry/s51t.tar.xz", ".deps/openblas"]
# build-carry/s51t.tar.xz: test_gpu and test_gpu_16bit of the tree at its COMMIT (736b5f6), built
# on the CPU machine.
# The sm90 fp32 paths past the packed layouts' table have never run under a sanitizer
# (session 50's test audit): GpuTrtrmm's Banded instantiation (sm90_tf32x3, sm90_tf32 in bands
# of 12 diagonals at 5896 and 6144) and LongRows (sm90_fp16x3 and sm90_fp16x1 at 5896, and at
# 8200, where the prepass streams A's rows). One test body (IntegerInputsExact) a case; upper
# at both sizes, lower at the smaller one, racecheck first (session 51: seconds on the TMA/wgmma
# kernels), then synccheck, then memcheck (the slowest; the fp64 CPU reference at 8200 takes ~1
# min a case on its own).
# First, without a sanitizer, the tests session 51 added (never run): GpuDetect at n = 4097
# (f42bde7; 10 cases, six kernel runs each; the fp64 dense reference takes seconds a case) and
# GpuDetect16Pinned.UnforcedPastTheDenseRule (736b5f6; 16-bit Detect unforced at 2304, the flags
# path just past the one-dense-launch rule).
# Predicted: every case passes with 0 errors and 0 hazards; memcheck may not finish 8200 in its
# box (then it reports nothing for it: not a pass, say so).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_TEST_MAX_N=8200
mkdir -p /tmp/v && tar -xJf build-carry/s51t.tar.xz -C /tmp/v
T=/tmp/v/s51t/test_gpu L=$OUT/run.txt
cat /tmp/v/s51t/COMMIT >> $L
timeout 240 $T --gtest_filter='Inputs/GpuDetect.*n4097' > $OUT/detect4097.txt 2>&1
echo "GpuDetect 4097 rc $?" >> $L; grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" $OUT/detect4097.txt >> $L
timeout 120 /tmp/v/s51t/test_gpu_16bit --gtest_filter='*UnforcedPastTheDenseRule*' \
  > $OUT/detect16_2304.txt 2>&1
echo "UnforcedPastTheDenseRule rc $?" >> $L
grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" $OUT/detect16_2304.txt >> $L
F='Banded/GpuTrtrmm.IntegerInputsExact/*_upper_*:Banded/GpuTrtrmm.IntegerInputsExact/*_lower_n5896'
F+=':LongRows/GpuTrtrmm.IntegerInputsExact/*_upper_*:LongRows/GpuTrtrmm.IntegerInputsExact/*_lower_n5896'
$T --gtest_list_tests --gtest_filter="$F" | grep -c "^  " >> $L
for tool in racecheck synccheck memcheck; do
  echo "== $tool" >> $L
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 1 $T --gtest_filter="$F" \
    > $OUT/$tool.txt 2>&1
  echo "rc $?" >> $L
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED|^\[       OK" $OUT/$tool.txt >> $L
done
cat $L
