# Session 63, call 5 (~4 min): main at ddbc578 (the 32×32 tile up to 2048) as landed: the fp64
# suite, racecheck of the 32×32 tile at 32 k a stage (call 3's was cut at 120 s by n = 1089),
# and the fp64 sweep with its anchor for RESULTS and the README.
# carry ["build-carry/s63n.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s63n "" ddbc578; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s63n.tar.xz s63n
# Predicted (H100): suite passes, racecheck clean; Triangular 1792 ~0.108, 2048 ~0.145, Detect
# 2048 ~0.165; the rest as call 3's main.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s63n.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s63n
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu (main)" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $M/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $M/test_gpu \
  --gtest_filter='Sizes/GpuFp64.*default_upper_n129:Sizes/GpuFp64Batched.*default_lower_n130' \
  > /tmp/san_racecheck.txt 2>&1
echo "racecheck rc $? at $SECONDS s" >> $L
grep -E "PASSED|FAILED|RACECHECK SUMMARY|Race" /tmp/san_racecheck.txt | head -8 >> $L
echo "== sweep" >> $L
timeout 200 $M/trimm bench --dtype fp64 --structure both \
  --sizes 256,512,768,1024,1280,1536,1792,2048,2560,3072,4096,8192 >> $L 2>&1
echo "bench rc $? at $SECONDS s" >> $L
grep -E "trimm|reference|==|rc " $L | tail -c 9000
