# Session 64, call 10 (~4 min): main as built (the one-double loader's plain copies for odd lds,
# each operand's own bound past n, Detect's dense shapes by ranges of n): the fp64 suite, the three
# sanitizers on odd n and lds, and the fp64 sweep twice over aligned and odd sizes (calls 8–9 found
# odd n at 0.77–0.86× and n = 500 at 0.99×).
# carry ["build-carry/s64k.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64k "" HEAD; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64k.tar.xz s64k
# Predicted (H100): suite passes, sanitizers clean; 513 Detect ~0.022 (the aligned path's 544 plus
# ~25 % for one-double copies), Triangular at odd n within ~20 % of the next aligned n; 500 ~0.016;
# aligned sizes as call 8's best shape in each range.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64k.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64k
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $M/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n127:Sizes/GpuFp64.*default_lower_n801:Sizes/GpuFp64Batched.*default_lower_n130'
for tool in memcheck synccheck racecheck; do
  [ $tool = racecheck ] && san='Sizes/GpuFp64.*default_upper_n127:Sizes/GpuFp64Batched.*default_lower_n130'
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $M/test_gpu \
    --gtest_filter="$san" > /tmp/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L
  grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY|Invalid|Race" /tmp/san_$tool.txt | head -8 >> $L
done
for r in 1 2; do
  echo "== sweep $r" >> $L
  timeout 150 $M/trimm bench --dtype fp64 --structure both \
    --sizes 16,17,64,127,128,192,255,256,257,384,480,500,511,512,513,544,576,608,640,672,704,736,768,769,800,832,864,896,960,1000,1024,1025,1280,1536,2047,2048,3072,4095,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
grep -E "==|rc |NVIDIA|PASSED|FAILED|SUMMARY" $L | grep -v shard
