# Session 47, call 5: the landed 16-bit dense Detect (2576b12; s48c = its code, comments aside):
# the whole test_gpu_16bit, then racecheck and synccheck on the dense paths (the small kernel's at
# n = 64 and 129, a batch; sm80_16bit's via GpuDetect16Pinned at n = 200 x 3 is the small one too).
# Predicted: all pass, 0 hazards.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 420 /tmp/v/s48c/test_gpu_16bit > $OUT/tests16.txt 2>&1
echo "s48c test_gpu_16bit (all) rc $?: $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/tests16.txt | head -3 | tr '\n' ' ')" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
F='Inputs/GpuDetect16.*n64:Inputs/GpuDetect16.*n129:GpuDetect16Pinned.OneValueInOneBatchEntryIsFound'
for tool in racecheck synccheck; do
  TRIMM_TEST_MAX_N=300 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 \
    /tmp/v/s48c/test_gpu_16bit --gtest_filter="$F" > $OUT/$tool.txt 2>&1
  echo "$tool rc $?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/$tool.txt | tail -1); $(grep -E '^\[  PASSED' $OUT/$tool.txt)" >> $L
done
cat $L
