# Session 64, call 2 (~6 min): main at 12492b8 (each operand's own edge test, 8b81d35; Triangular
# up to 768 on the 32×32 tile's eight warps, 12492b8): the fp64 suite, the three sanitizers on
# both 32×32 Triangular shapes, and the fp64 sweep from 16 to 16384 (item 5's ends); then three
# tunings of the eight-warp tile against it, two rounds each.
#   _stages5: a 5-slice ring (bench/variants/s64_fp64_w8_stages5.patch): four stages in flight
#             instead of two on the longest band's chain;
#   _bk64:    64 k a stage (s64_fp64_w8_bk64.patch): half the stages, each twice the copies;
#   _to1024:  the eight-warp tile up to 1024 (s64_fp64_w8_to1024.patch), for 896.
# carry ["build-carry/s64c2.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64m "" 12492b8; TARGETS=trimm_cli
#   scripts/build_variant.sh /tmp/pk/s64_V _V 12492b8 bench/variants/s64_fp64_w8_V.patch for V in
#   stages5 bk64 to1024; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s64c2.tar.xz s64m s64_stages5
#   s64_bk64 s64_to1024
# Predicted (H100): suite passes, sanitizers clean; Triangular 256 ~0.0100, 512 ~0.0162, 768
# ~0.0253, 1024 ~0.0349, 2048 ~0.135, 4096 ~0.77; every size ≥ 1× the reference but Detect's dense
# launch at 16–128 (two launches against one: trimm ahead there too); _stages5 256 ~0.0092 (DRAM
# latency halved on the chain), _bk64 ~0.0095; _to1024 896 ~equal.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64c2.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64m
cat /tmp/v/s64m/COMMIT /tmp/v/s64_*/COMMIT >> $L
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
echo "== sweep main" >> $L
timeout 120 $M/trimm bench --dtype fp64 --structure both \
  --sizes 16,64,128,192,256,384,512,640,768,896,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
echo "bench rc $? at $SECONDS s" >> $L
timeout 120 $M/trimm bench --dtype fp64 --structure both --sizes 16384 --runs 20 >> $L 2>&1
echo "bench 16384 rc $? at $SECONDS s" >> $L
for r in 1 2; do
  for v in s64m/trimm s64_stages5/trimm_stages5 s64_bk64/trimm_bk64; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/$v bench --dtype fp64 --sizes 128,256,384,512,640,768 --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
  for v in s64m/trimm s64_to1024/trimm_to1024; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/$v bench --dtype fp64 --sizes 832,896,960 --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
grep -E "==|rc |trimm sm|reference|PASSED|FAILED|SUMMARY" $L | grep -v "shard" | tail -c 10000
