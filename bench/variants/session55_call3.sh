# Session 55's last device call (~4 min, boxed): the tall form with its epilogue overlapped
# (branch `packed`: a unit's sums rounded into 32 words a thread, the next unit's first stage
# issued into the one accumulator set, the words stored while it runs), and the capture flake's
# fix (session55_call2.sh's question, shortened).
# carry ["build-carry/s55w.tar.xz", "build-carry/s55t.tar.xz", ".deps/openblas"]
# s55w: trimm and test_gpu_16bit of `packed` (with the upload fix; the branch's src change is
# bench/variants/s55_tall_overlap.patch, which `git apply` takes on main, its SASS s55w's by
# scripts/sass_identity.py); s55t: main's tall form. If it wins and passes: apply the patch,
# rerun its tests, land it.
# Predicted: the tall cases pass and the sanitizers are clean; 4096 0.0465-0.0480 ms against
# s55t's 0.0481-0.0484 (~3 units a block, each epilogue's ~0.5-1 µs of staging now beside the
# tensor work), 8192 1-2 % faster; the capture test passes every repeat with the fix.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && for b in s55w s55t; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
L=$OUT/run.txt
cat /tmp/v/s55w/COMMIT /tmp/v/s55t/COMMIT >> $L
F='Tall/*:WidePairs/*upper*:AllKernels/*upper_n4097:GpuDetect16Pinned.Sm90Pairs*'
BOX=100 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s55w/test_gpu_16bit 8 "$F" >> $L 2>&1
echo "packed tall tests rc $?" >> $L
T='Tall/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n4096'
for tool in racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 \
    /tmp/v/s55w/test_gpu_16bit --gtest_filter="$T" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for round in 1 2; do
  for b in s55w s55t; do
    echo "== $b, round $round" >> $L
    timeout 60 /tmp/v/$b/trimm bench --dtype bf16 --kernel sm90_16bit --sizes 4096,5120,8192 \
      > $OUT/last_$b.txt 2>&1
    echo "rc $?" >> $L; grep -E "trimm sm|GemmEx|rror|FAIL" $OUT/last_$b.txt >> $L
  done
done
for b in s55w; do  # (s55t's repeats: the flake's rate before the fix, if time allows another call)
  TRIMM_TEST_MAX_N=8320 timeout 50 /tmp/v/$b/test_gpu_16bit \
    --gtest_filter='GpuTrtrmm16Dispatch.CallsCapture*' --gtest_repeat=6 > $OUT/rep_$b.txt 2>&1
  echo "$b capture rc $? ok $(grep -c '^\[       OK' $OUT/rep_$b.txt) failed $(grep -c '^\[  FAILED  \] Gpu.*ms)' $OUT/rep_$b.txt)" >> $L
  grep -E "changed from|detect n" $OUT/rep_$b.txt | sort | uniq -c | head -6 >> $L
done
cat $L
