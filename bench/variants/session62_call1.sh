# Session 62, call 1 (~9.5 min; prepared in session 61): main's fp64 (the 32×32 tile split by
# mode, 6b823e6, never run as landed) on the GPU, the gate's lead on the 32×32 band, and the
# PyTorch operator's float64 path (pytest, op_timing), never run on a GPU since session 59's gate.
# carry ["build-carry/s62.tar.xz", "build-carry/s60.tar.xz", ".deps/openblas"]
# Build here (.deps/ from scripts/device-deps.sh; ~6 min on 2 cores):
#   scripts/build_variant.sh /tmp/pk/s62 "" HEAD      # main at this script's commit or later
#   XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s62.tar.xz s62
# s60.tar.xz: session60_call1.sh's header (trimm_base at 7a96cfd, the knob build trimm_z).
# The package builds in the background (nice 19) while the C++ tests run. Ordered so that a call
# cut short still brings the tests, then the sweep; the racecheck of the gated batch at 2051
# (cut at 120 s in session 61) runs last, in what is left.
# Predicted (H100): tests pass, sanitizers clean; Triangular 1280 ~0.079, 1536 ~0.113 (the 32×32
# tile as landed; 0.111 and 0.136 on 64×64), the rest as session 61's call 2; the gate on the
# 32×32 band (TRIMM_X_GATED_MIN_N=0 TRIMM_X_TINY_MAX=1536) beats the dense launch from ~768:
# 768 ~0.042 against 0.050, 1024 ~0.063 against 0.065, 1536 ~0.125 against 0.155; pytest all
# pass; the operator's float64 at 4096 ~1.05 ms against torch's ~2.24.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && for t in s62 s60; do tar -xJf build-carry/$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
B=/tmp/v/s62 Z=/tmp/v/s60
cat $B/COMMIT $Z/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
{ python3 -c "import torch; print('torch', torch.__version__)" &&
  nice -n 19 python3 -m pip install --no-build-isolation --quiet . ; } > $OUT/python.log 2>&1 &
pypid=$!
echo "== test_gpu (main)" >> $L
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.*default_upper_n1089:Sizes/GpuFp64.TriangularOneNonFiniteValue/default_upper_n1000:Sizes/GpuFp64Batched.*default_upper_n130'
for tool in memcheck synccheck racecheck; do
  # racecheck takes the gated batch alone at the end.
  gated=':Sizes/GpuFp64Batched.DetectGatedOverTheBatch/default_upper_n1'; [ $tool = racecheck ] && gated=
  TRIMM_TEST_MAX_N=4096 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter="$san$gated" \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_base; do
  echo "== $b" >> $L
  bin=$B/trimm; [ $b = trimm_base ] && bin=$Z/trimm_base
  timeout 60 $bin bench --dtype fp64 --structure both --sizes 256,768,1024,1280,1536,1792,2048,4096 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
for g in 0 100000; do
  echo "== trimm_z TRIMM_X_GATED_MIN_N=$g TRIMM_X_TINY_MAX=1536 (the gate on the 32×32 band)" >> $L
  TRIMM_X_GATED_MIN_N=$g TRIMM_X_TINY_MAX=1536 timeout 60 $Z/trimm_z bench --dtype fp64 \
    --structure detect --sizes 512,768,1024,1280,1536 >> $L 2>&1
done
echo "== python package + pytest ($SECONDS s)" >> $L
{ wait $pypid && (cd python/tests && timeout $((480 - SECONDS)) python3 -m pytest -q -rs .); } >> $OUT/python.log 2>&1
echo "pytest rc $? at $SECONDS s" >> $L; tail -4 $OUT/python.log >> $L
PYTHONUNBUFFERED=1 timeout 60 python3 scripts/op_timing.py 1024 4096 >> $L 2>&1
echo "op_timing rc $? at $SECONDS s" >> $L
left=$((580 - SECONDS))
TRIMM_TEST_MAX_N=4096 timeout $((left > 1 ? left : 1)) compute-sanitizer --tool racecheck --error-exitcode 9 \
  $B/test_gpu --gtest_filter='Sizes/GpuFp64Batched.DetectGatedOverTheBatch/default_upper_n1' \
  > $OUT/san_racecheck_gated.txt 2>&1
echo "racecheck (the gated batch) rc $? at $SECONDS s" >> $L
grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_racecheck_gated.txt >> $L
tail -c 9000 $L
