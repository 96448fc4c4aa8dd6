# Prepared in session 51 for the next device session (~6-9 min, every run time-boxed).
# carry ["build-carry/s51t.tar.xz", ".deps/openblas"]
# build-carry/s51t.tar.xz: test_gpu of 1a60f44 (see session52_call1.sh).
# The sm90 fp32 paths past the packed layouts' table have never run under a sanitizer
# (session 50's test audit): GpuTrtrmm's Banded instantiation (sm90_tf32x3, sm90_tf32 in bands
# of 12 diagonals at 5896 and 6144) and LongRows (sm90_fp16x3 and sm90_fp16x1 at 5896, and at
# 8200, where the prepass streams A's rows). One test body (IntegerInputsExact) a case; upper
# at both sizes, lower at the smaller one, racecheck first (session 51: seconds on the TMA/wgmma
# kernels), then synccheck, then memcheck (the slowest; the fp64 CPU reference at 8200 takes ~1
# min a case on its own).
# Predicted: every case passes with 0 errors and 0 hazards; memcheck may not finish 8200 in its
# box (then it reports nothing for it: not a pass, say so).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_TEST_MAX_N=8200
mkdir -p /tmp/v && tar -xJf build-carry/s51t.tar.xz -C /tmp/v
T=/tmp/v/s51t/test_gpu L=$OUT/run.txt
cat /tmp/v/s51t/COMMIT >> $L
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
