# Session 55's first device call (~6-8 min, boxed): sm90_16bit's tall units (192×128, three
# consumer warpgroups; docs/sm90_16bit_wide_plan.md option C) built out on branch `tall` without a
# device, before the probe (session54_call0.sh) had run, since the device was refused five times.
# carry ["build-carry/s55t.tar.xz", "build-carry/s54.tar.xz", "build-carry/s54p.tar.xz",
#        ".deps/openblas"]
# s55t: trimm and test_gpu_16bit of the tall branch (COMMIT); s54: the landed tree's (baseline);
# s54p: the probe.
# 1. Correctness first: the tall cases of test_gpu_16bit (Tall/*: 4096, 4160; WidePairs upper:
#    5500, 5889, 6144, 8192; 4097 upper; the capture tests, one of them tall and one Detect then
#    tall) in 8 shards. Predicted: all pass (a failure: read which body; a hang: the ring's phases
#    or the empty count, 12 consumer warps).
# 2. compute-sanitizer memcheck, racecheck, synccheck on one tall call (bf16 4096, integers).
# 3. The bench, tall against s54's square pairs, alternating, two rounds, 4096-8192. Predicted
#    from the probe's model (bench/NOTES.md session 54: skeleton 44-49 µs at 4096 against the
#    square skeleton's ~53; the landed kernel 48): tall 44-50 µs at 4096, i.e. 0.92-1.04× the
#    landed 0.048 ms; 8192 0.85-0.95×. The single accumulator set (160 registers: two spill)
#    costs an unoverlapped epilogue a unit (~3 a block at 4096), which the probe's skeleton also
#    lacks.
# 4. The probe's pairs at 4096 (M=192 pairs against W=128 pairs): is a tall pair layout next?
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && for b in s55t s54 s54p; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
L=$OUT/run.txt
cat /tmp/v/s55t/COMMIT /tmp/v/s54/COMMIT /tmp/v/s54p/COMMIT >> $L
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >> $L 2>&1
F='Tall/*:WidePairs/*upper*:AllKernels/*upper_n4097:GpuTrtrmm16Dispatch.*:GpuDetect16Pinned.Sm90Pairs*'
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s55t/test_gpu_16bit 8 "$F" >> $L 2>&1
echo "tall tests rc $?" >> $L
T='Tall/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n4096'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    /tmp/v/s55t/test_gpu_16bit \
    --gtest_filter="$T" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" \
    $OUT/san_$tool.txt >> $L
done
for round in 1 2; do
  for b in s55t s54; do
    echo "== $b, round $round" >> $L
    timeout 60 /tmp/v/$b/trimm bench --dtype bf16 --kernel sm90_16bit \
      --sizes 4096,5120,6144,8192 > $OUT/last_$b.txt 2>&1
    echo "rc $?" >> $L; grep -E "trimm sm|GemmEx|rror|FAIL" $OUT/last_$b.txt >> $L
  done
done
timeout 60 /tmp/v/s54p/probe_sm90_bf16_wide --pairs --paths 4096 >> $L 2>&1
echo "pairs rc $?" >> $L
cat $L
