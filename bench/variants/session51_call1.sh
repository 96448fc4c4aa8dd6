# Session 51's last device call (~7 min): 16-bit Detect's one dense launch to n = 2048 (3c65d47),
# built on the CPU machine: build-carry/s51.tar.xz (trimm, test_gpu_16bit, test_dispatch).
# carry ["build-carry/s51.tar.xz", ".deps/openblas"]
# 1. The Detect16 suites (the direct dense-launch test now at 2048 too) and test_dispatch.
# 2. bf16/fp16 Detect at 1920, 2048, 2304, triangular and noisy, two rounds. Predicted (bf16,
#    ms): 2048 0.031-0.033 on both inputs (call 3's probe with the rule raised: 0.0319 / 0.0320);
#    1920 and 2304 as main in call 3 (0.0203; 0.0328 triangular, 0.0494 noisy).
# 3. memcheck on the direct dense-launch test (to 2048), then racecheck on sm90_16bit's persistent
#    blocks at 2560 (call 9's racecheck of the pairs at 3072 ran past 170 s), time-boxed.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s51.tar.xz -C /tmp/v
T=/tmp/v/s51 L=$OUT/run.txt
cat $T/COMMIT >> $L
(cd $T && timeout 200 ./test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/detect16.txt 2>&1;
 echo "Detect16 rc $?" >> $L; timeout 30 ./test_dispatch > $OUT/dispatch.txt 2>&1;
 echo "test_dispatch rc $?" >> $L)
tail -1 $OUT/detect16.txt >> $L; grep -E "FAILED|SKIPPED" $OUT/detect16.txt | head >> $L
tail -1 $OUT/dispatch.txt >> $L
for round in 1 2; do
  for dt in bf16 fp16; do
    for inputs in "" "--noisy"; do
      echo "== $dt ${inputs:-triangular}, round $round" >> $L
      timeout 60 $T/trimm bench --dtype $dt --sizes 1920,2048,2304 --structure detect $inputs \
        > $OUT/last.txt 2>&1
      echo "rc $?" >> $L; grep -E "trimm sm|GemmEx|rror|FAIL" $OUT/last.txt >> $L
    done
  done
done
echo "== memcheck, the dense launch to 2048" >> $L
TRIMM_TEST_MAX_N=2048 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 \
  $T/test_gpu_16bit --gtest_filter='*Sm90DenseLaunchIsTheDenseProduct*' > $OUT/memcheck.txt 2>&1
echo "rc $?" >> $L; grep -E "ERROR SUMMARY|^\[  PASSED|^\[  FAILED" $OUT/memcheck.txt >> $L
echo "== racecheck, persistent blocks at 2560" >> $L
TRIMM_TEST_MAX_N=2560 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 \
  $T/test_gpu_16bit --gtest_filter='*IntegerInputsExact/bf16_sm90_16bit_*_n2560' \
  > $OUT/racecheck.txt 2>&1
echo "rc $?" >> $L; grep -E "RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED|^\[       OK" $OUT/racecheck.txt >> $L
cat $L
