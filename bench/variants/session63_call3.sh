# Session 63, call 3 (~5 min): main as landed at 5ee4d83 (the loader's fast copies, 951bfa5; the
# 32×32 tile at 32 k a stage, 5ee4d83), sm_90a and sm_80 as main builds them.
# carry ["build-carry/s63m.tar.xz", "build-carry/s63f.tar.xz", "build-carry/s63.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s63m "" 5ee4d83; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s63m.tar.xz s63m
# s63 (session62's knob build, the tree before 951bfa5) is the baseline in the same call; s63f's
# TRIMM_X_TINY_ID=1 with TRIMM_X_TINY_MAX=2600 asks whether the 32×32 tile should reach past 1536.
# Predicted: suites pass; sanitizers clean; main as call 2's id 1 from 256 to 1536 (1024 ~0.038)
# and as call 2's fast copies from 2048 (4096 ~0.78); the 32×32 tile loses from ~1792 (it lost
# at 2048 by 10 % with 16 k a stage, session 61).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && for t in s63m s63f s63; do tar -xJf build-carry/$t.tar.xz -C /tmp/v; done
L=$OUT/a_run.txt
M=/tmp/v/s63m F=/tmp/v/s63f Y=/tmp/v/s63
cat $M/COMMIT $F/COMMIT $Y/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu (main)" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $M/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n129:Sizes/GpuFp64Batched.*default_lower_n130:Sizes/GpuFp64.*default_lower_n1089'
for tool in memcheck synccheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $M/test_gpu \
    --gtest_filter="$san" > /tmp/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY|Invalid|Race" /tmp/san_$tool.txt | head -8 >> $L
done
for r in 1 2; do
  echo "== round $r: main" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both \
    --sizes 256,512,768,1024,1280,1536,1792,2048,2560,4096,8192 >> $L 2>&1
  echo "== round $r: trimm_y (before 951bfa5)" >> $L
  timeout 120 $Y/trimm_y bench --dtype fp64 --structure both \
    --sizes 256,512,768,1024,1280,1536,1792,2048,2560,4096,8192 --no-anchors >> $L 2>&1
  echo "== round $r: trimm_f TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=2600" >> $L
  TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=2600 timeout 60 $F/trimm_f bench --dtype fp64 \
    --structure both --sizes 1536,1792,2048,2560 --no-anchors >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
grep -E "trimm|==|rc " $L | tail -c 11000
