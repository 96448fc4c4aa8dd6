# Session 64, call 1b (~8 min): session64_call1.sh's work (main swept, ncu Triangular against
# Detect at 256, the float64 operator's pytest and op_timing) plus three variants of the 32×32
# fp64 tile for Triangular at small n, where it trails DGEMM + triu (256 0.85×, 512 0.89×):
#   _w8: 8 warps of 16×8 (bench/variants/s64_fp64_tiny_w8.patch): half the copies and
#        fragments a warp, two warps a scheduler where one block runs an SM (n ≤ 512);
#   _e:  each operand's triangle test only in its own edge stage (s64_fp64_edge_split.patch),
#        the other operand's copies plain;
#   _we: both.
# carry ["build-carry/s64.tar.xz", "build-carry/s64v.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64 "" HEAD; TARGETS="trimm_cli test_gpu"
#   scripts/build_variant.sh /tmp/pk/s64w _w8 HEAD bench/variants/s64_fp64_tiny_w8.patch (s64e
#   _e edge_split; s64we _we both); XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s64v.tar.xz s64w
#   s64e s64we
# Predicted (H100): main as session 63 call 5; _w8 Triangular 256 ~0.0095, 512 ~0.016 (one
# warp a scheduler exposes each instruction's latency, so halving a warp's work should cut the
# chain by ~20 %), equal or a few % worse from 1536; _e 256 ~0.0110 (half the edge copies'
# tests); _we best at 256/512. The _we suite passes.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64.tar.xz -C /tmp/v && tar -xJf build-carry/s64v.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64
cat /tmp/v/*/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
{ python3 -c "import torch; print('torch', torch.__version__)" &&
  nice -n 19 python3 -m pip install --no-build-isolation --quiet . ; } > $OUT/b_python.log 2>&1 &
pypid=$!
echo "== sweep main" >> $L
timeout 120 $M/trimm bench --dtype fp64 --structure both \
  --sizes 256,512,768,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
echo "bench rc $? at $SECONDS s" >> $L
for r in 1 2; do
  for v in s64/trimm s64w/trimm_w8 s64e/trimm_e s64we/trimm_we; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/$v bench --dtype fp64 --structure both --sizes 256,512,768,1024,1536,2048 \
      --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
echo "== test_gpu_we *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s64we/test_gpu_we 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
for v in s64/trimm s64we/trimm_we; do
  for s in triangular detect; do
    f=/tmp/fp64_$(basename $v)_$s
    timeout 60 ncu --clock-control none --kernel-name regex:sm80_fp64 --launch-skip 1 \
      --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section SourceCounters --import-source no -f -o $f \
      /tmp/v/$v bench --dtype fp64 --structure $s --sizes 256 --runs 1 --warmup 1 --no-anchors \
      > $f.log 2>&1
    echo "== ncu $v $s n=256 rc $? at $SECONDS s" >> $L
    ncu --import $f.ncu-rep --page details 2>&1 |
      grep -E "sm80_fp64_kernel|Duration|Elapsed Cycles|SM Active|Issued Warp|No Eligible|Warp Cycles Per Issued" >> $L
    ncu --import $f.ncu-rep --page source --csv --print-source sass > $f.csv 2>&1
    python3 scripts/ncu_source_summary.py $f.csv 10 >> $L 2>&1
  done
done
echo "== python package + pytest ($SECONDS s)" >> $L
{ wait $pypid && (cd python/tests && timeout $((540 - SECONDS)) python3 -m pytest -q -rs .); } >> $OUT/b_python.log 2>&1
echo "pytest rc $? at $SECONDS s" >> $L; tail -4 $OUT/b_python.log >> $L
PYTHONUNBUFFERED=1 timeout 40 python3 scripts/op_timing.py 1024 4096 >> $L 2>&1
echo "op_timing rc $? at $SECONDS s" >> $L
grep -E "==|rc |trimm sm|reference|passed|failed|float64" $L | tail -c 10000
