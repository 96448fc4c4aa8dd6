# Session 63, call 2 (~5 min): the fp64 loader's copies without tests on the stages that need none
# (bench/variants/s63_fp64_fast_copies.patch), built with the tiny-tile knobs
# (s62_fp64_tiny_knobs.patch) as trimm_f / test_gpu_f; the landed tree's knob build (s63, call 1)
# is the baseline in the same call.
# carry ["build-carry/s63f.tar.xz", "build-carry/s63.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s63f _f 73bfc58 bench/variants/s63_fp64_fast_copies.patch
#   bench/variants/s62_fp64_tiny_knobs.patch; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s63f.tar.xz s63f
# Why (call 1's ncu, H200): the 32×32 kernel at 512 and 1024 spent most issue slots on the
# loader's integer work (ISETP, IMAD, IADD3, LEA, SEL, PLOP3 ~70 % of stall samples, DMMA 3 %),
# ~1300 cycles a stage on the longest band's chain.
# Predicted (H200): Triangular 256 / 512 / 1024 0.0128 / 0.0223 / 0.0513 → ~0.010 / ~0.016 /
# ~0.036; 4096 (64×64) and Detect 4096 (128×128) a few % faster; the 32 k stage (id 1) a further
# ~5 % at 512–1536; suites pass, sanitizers clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && for t in s63f s63; do tar -xJf build-carry/$t.tar.xz -C /tmp/v; done
L=$OUT/a_run.txt
F=/tmp/v/s63f Y=/tmp/v/s63
cat $F/COMMIT $Y/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu_f, landed dispatch" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $F/test_gpu_f 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
echo "== test_gpu_f TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=2100" >> $L
TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=2100 BOX=150 TRIMM_TEST_MAX_N=8320 \
  scripts/gpu_shards.sh $F/test_gpu_f 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n129:Sizes/GpuFp64Batched.*default_lower_n130:Sizes/GpuFp64.*default_lower_n1089'
for tool in memcheck synccheck racecheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $F/test_gpu_f \
    --gtest_filter="$san" > /tmp/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY|Invalid|Race" /tmp/san_$tool.txt | head -8 >> $L
done
TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=2100 timeout 60 compute-sanitizer --tool memcheck \
  --error-exitcode 9 $F/test_gpu_f --gtest_filter="$san" > /tmp/san_m1.txt 2>&1
echo "memcheck id 1 rc $? at $SECONDS s" >> $L
grep -E "ERROR SUMMARY|PASSED|FAILED|Invalid" /tmp/san_m1.txt | head -5 >> $L
for r in 1 2; do
  echo "== round $r: trimm_y (landed, old copies)" >> $L
  timeout 90 $Y/trimm_y bench --dtype fp64 --structure both --sizes 256,512,768,1024,1280,1536,2048,4096 >> $L 2>&1
  echo "== round $r: trimm_f (fast copies, landed dispatch)" >> $L
  timeout 90 $F/trimm_f bench --dtype fp64 --structure both --sizes 256,512,768,1024,1280,1536,2048,4096 >> $L 2>&1
  echo "== round $r: trimm_f TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=1536" >> $L
  TRIMM_X_TINY_ID=1 TRIMM_X_TINY_MAX=1536 timeout 60 $F/trimm_f bench --dtype fp64 \
    --structure both --sizes 256,512,768,1024,1280,1536 --no-anchors >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
grep -E "trimm|reference|==|rc " $L | tail -c 11000
