# Session 64, call 7 (~3 min): main at 79bac79 (Detect's dense launch from 641 to 864 on the
# four-warp 32×32 tile with a 4-slice ring; the suite's new n = 801 runs it): the fp64 suite, the
# three sanitizers on the new shape (racecheck on one test at 801), and the fp64 sweep twice.
# carry ["build-carry/s64g.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64g "" 79bac79; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64g.tar.xz s64g
# Predicted (H100): suite passes, sanitizers clean; Detect 768 ~0.0257 (1.2×), 832 ~0.030, the rest
# as call 4; every size ≥ 1×, the closest Detect at 512 and 896 (~1.01×).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64g.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64g
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $M/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n801:Sizes/GpuFp64.*sm80_fp64_m8n8k4_lower_n801'
for tool in memcheck synccheck racecheck; do
  [ $tool = racecheck ] && san='Sizes/GpuFp64.DetectEqualsTheDenseProductsTriangle/default_lower_n801'
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $M/test_gpu \
    --gtest_filter="$san" > /tmp/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY|Invalid|Race" /tmp/san_$tool.txt | head -8 >> $L
done
for r in 1 2; do
  echo "== sweep $r" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both \
    --sizes 16,64,128,192,256,384,512,640,704,768,832,864,896,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
grep -E "==|rc |NVIDIA|PASSED|FAILED|SUMMARY" $L | grep -v shard
