# Session 61, call 2 (~9 min): main with the fp64 landing (cb1f4a5, 99a91f9, ac7268b: the band
# edges on the tensor cores, the gated Detect from 2048, a 32×32 tile up to 1024) on the GPU,
# ordered so that a call cut short still brings the tests, then the sweep.
# carry ["build-carry/s61.tar.xz", "build-carry/s60.tar.xz", ".deps/openblas"]
# Build here (.deps/ from scripts/device-deps.sh; ~7 min on 2 cores):
#   scripts/build_variant.sh /tmp/pk/s61 "" ac7268b
#   XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s61.tar.xz s61
# s60.tar.xz (session60_call1.sh's header) brings session 59's tree (trimm_base) and the knob
# build (trimm_z) for the 32×32 tile's crossover between 1024 and 2048.
# The package builds in the background (nice 19) while the C++ tests run, then pytest (float64
# included: noise, NaN and Inf against torch) and scripts/op_timing.py.
# Predicted (H100; an H200 reads ~the same for fp64): tests pass, sanitizers clean; Triangular
# 256 ~0.013 ms, 512 ~0.022, 1024 ~0.051, 2048 0.216, 4096 0.958, 8192 7.47; Detect on
# triangular inputs 256 ~0.011, 512 ~0.021, 1024 0.05–0.06 (the dense launch on 32×32), 2048
# 0.236, 4096 1.01; the 32×32 tile's crossover between 1280 and 1792; pytest all pass; the
# operator's float64 at 4096 ~1.05 ms against torch's ~2.24.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && for t in s61 s60; do tar -xJf build-carry/$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
B=/tmp/v/s61 Z=/tmp/v/s60
cat $B/COMMIT $Z/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
# PY=0 (a short budget): no package, no pytest, no op_timing.
PY=${PY:-1}
[ $PY = 1 ] && { python3 -c "import torch; print('torch', torch.__version__)" &&
  nice -n 19 python3 -m pip install --no-build-isolation --quiet . ; } > $OUT/python.log 2>&1 &
pypid=$!
echo "== test_gpu (main + the landing)" >> $L
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.*default_upper_n1089:Sizes/GpuFp64.TriangularOneNonFiniteValue/default_upper_n1000:Sizes/GpuFp64Batched.*default_upper_n130:Sizes/GpuFp64Batched.DetectGatedOverTheBatch/default_upper_n1' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_base; do
  echo "== $b" >> $L
  bin=$B/trimm; [ $b = trimm_base ] && bin=$Z/trimm_base
  timeout 60 $bin bench --dtype fp64 --structure both --sizes 256,512,768,1024,1536,2048,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
echo "== noisy inputs (Detect: the scan flags them, the dense launch runs): trimm, trimm_base" >> $L
timeout 60 $B/trimm bench --dtype fp64 --structure detect --noisy --sizes 1024,2048,4096 >> $L 2>&1
timeout 60 $Z/trimm_base bench --dtype fp64 --structure detect --noisy --sizes 1024,2048,4096 >> $L 2>&1
for t in 2048 0; do
  echo "== trimm_z TRIMM_X_TINY_MAX=$t TRIMM_X_GATED_MIN_N=100000 (32×32 crossover; dense Detect)" >> $L
  TRIMM_X_TINY_MAX=$t TRIMM_X_GATED_MIN_N=100000 timeout 60 $Z/trimm_z bench --dtype fp64 \
    --structure both --sizes 1024,1280,1536,1792 >> $L 2>&1
done
[ $PY = 1 ] || { tail -c 9000 $L; exit 0; }
echo "== python package + pytest ($SECONDS s)" >> $L
{ wait $pypid && (cd python/tests && timeout $((560 - SECONDS)) python3 -m pytest -q -rs .); } >> $OUT/python.log 2>&1
echo "pytest rc $? at $SECONDS s" >> $L; tail -4 $OUT/python.log >> $L
left=$((585 - SECONDS)); PYTHONUNBUFFERED=1 timeout $((left > 1 ? left : 1)) python3 scripts/op_timing.py 1024 4096 >> $L 2>&1
echo "op_timing rc $? at $SECONDS s" >> $L
tail -c 9000 $L
