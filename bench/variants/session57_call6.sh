# Session 57, call 6 (~5 min): the wide units (branch wide: 192×256, one Upper problem with
# n % 8 == 0 from 6144 to 12288) tested, sanitized and timed against main's dispatch.
# carry ["build-carry/s57w.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted (the probe, bench/RESULTS.md session 57, H100): every test passes and the sanitizers
# are clean; bf16/fp16 against main (tall to 8192, bands past): 6144 0.88-0.95×, 8192
# 0.80-0.88×, 10240 0.84-0.90×, 12288 0.90-0.97× (the landed kernel's features the probe lacked,
# the mirror zeroing above all, cost a little of the probe's gain).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s57w.tar.xz -C /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57w/COMMIT /tmp/v/s56/COMMIT >> $L
nvidia-smi --query-gpu=name --format=csv >> $L
F='Wide/*:WidePairs/*upper*:BandedSm90Aligned/*upper*:GpuTrtrmm16Dispatch.*:GpuDetect16Pinned.Sm90Pairs*:*InfInputs*upper_n8192*'
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s57w/test_gpu_16bit 16 "$F" >> $L 2>&1
echo "wide tests rc $?" >> $L
T='Wide/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n6208'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=8320 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
    /tmp/v/s57w/test_gpu_16bit --gtest_filter="$T" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" \
    $OUT/san_$tool.txt >> $L
done
for round in 1 2; do
  for b in s57w s56; do
    echo "== $b, round $round" >> $L
    timeout 60 /tmp/v/$b/trimm bench --dtype bf16 --kernel sm90_16bit \
      --sizes 6144,7168,8192,10240,12288 >> $L 2>&1
  done
done
timeout 40 /tmp/v/s57w/trimm bench --dtype fp16 --kernel sm90_16bit --sizes 6144,8192,12288 >> $L 2>&1
timeout 40 /tmp/v/s56/trimm bench --dtype fp16 --kernel sm90_16bit --sizes 6144,8192,12288 >> $L 2>&1
cat $L
