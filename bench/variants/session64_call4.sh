# Session 64, call 4 (~4 min): main as landed (35c7195: Detect's dense launch up to 640 on the
# eight-warp 32×32 tile, the last of this session's fp64 changes): the fp64 suite, the three
# sanitizers on both 32×32 shapes and modes, and the fp64 sweep from 16 to 16384 twice (RESULTS,
# the README and item 5's check).
# carry ["build-carry/s64f.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64f "" HEAD; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64f.tar.xz s64f
# Predicted (H100): suite passes, sanitizers clean; Detect 128 ~0.0061, 256 ~0.0081, 384 ~0.0104,
# 640 ~0.0199; Triangular as call 3; every size from 16 to 16384 ≥ 1× the reference but Detect
# at 768 (~1.02×), within the noise of it.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64f.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64f
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $M/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n255:Sizes/GpuFp64Batched.*default_lower_n130:Sizes/GpuFp64.*default_lower_n1000'
for tool in memcheck synccheck racecheck; do
  # racecheck on the eight-warp shapes alone (n = 1000 took it past 100 s in session 63's runs)
  [ $tool = racecheck ] && san=${san%:*}
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $M/test_gpu \
    --gtest_filter="$san" > /tmp/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY|Invalid|Race" /tmp/san_$tool.txt | head -8 >> $L
done
for r in 1 2; do
  echo "== sweep $r" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both \
    --sizes 16,64,128,192,256,384,512,640,768,896,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both --sizes 16384 --runs 20 >> $L 2>&1
  echo "bench 16384 rc $? at $SECONDS s" >> $L
done
grep -E "==|rc |trimm sm|reference|PASSED|FAILED|SUMMARY" $L | grep -v "shard" | tail -c 10000
