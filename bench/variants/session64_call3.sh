# Session 64, call 3 (~5 min): main at b5a5a43 (the eight-warp 32×32 tile at 64 k a stage for
# Triangular up to 768): the fp64 suite, the three sanitizers on its shapes, the fp64 sweep from
# 16 to 16384, the PyTorch operator (pytest, op_timing) built from this tree; and Detect's dense
# launch on the eight-warp tile (bench/variants/s64_fp64_dense_w8.patch, _d) against main's four
# warps, three rounds, where Detect sits at 0.98–1.03× the reference (256–768, call 2).
# carry ["build-carry/s64c3.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64n "" b5a5a43; TARGETS=trimm_cli
#   scripts/build_variant.sh /tmp/pk/s64d _d b5a5a43 bench/variants/s64_fp64_dense_w8.patch;
#   XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s64c3.tar.xz s64n s64d
# Predicted (H100): suite passes, sanitizers clean; Triangular 256 ~0.0094, 512 ~0.0148, 768
# ~0.0236, the rest as call 2; _d Detect 256 ~0.0088 (the same halved chain), 512 ~0.015, losing
# from ~768 where four blocks of four warps an SM fill it better.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64c3.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64n
cat /tmp/v/s64n/COMMIT /tmp/v/s64d/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
{ python3 -c "import torch; print('torch', torch.__version__)" &&
  nice -n 19 python3 -m pip install --no-build-isolation --quiet . ; } > $OUT/b_python.log 2>&1 &
pypid=$!
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
for r in 1 2 3; do
  for v in s64n/trimm s64d/trimm_d; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/$v bench --dtype fp64 --structure detect \
      --sizes 128,256,384,512,640,768,896,1024 --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
echo "== python package + pytest ($SECONDS s)" >> $L
{ wait $pypid && (cd python/tests && timeout $((500 - SECONDS)) python3 -m pytest -q -rs .); } >> $OUT/b_python.log 2>&1
echo "pytest rc $? at $SECONDS s" >> $L; tail -4 $OUT/b_python.log >> $L
PYTHONUNBUFFERED=1 timeout 60 python3 scripts/op_timing.py 256 1024 4096 >> $L 2>&1
echo "op_timing rc $? at $SECONDS s" >> $L
grep -E "==|rc |trimm sm|reference|PASSED|FAILED|SUMMARY|float64" $L | grep -v "shard" | tail -c 10000
