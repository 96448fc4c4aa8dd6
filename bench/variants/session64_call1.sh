# Session 64, call 1 (~7 min; prepared in session 63, whose device time ran out): main as landed at
# the end of session 63 (the fp64 fast copies, the 32×32 tile at 32 k a stage to 2048, Detect
# gated from 1025), swept; the PyTorch operator's float64 path (pytest, op_timing) after those
# changes; and ncu on fp64 Triangular against Detect at 256 and 1024, where the dense launch on
# the same tile beat the band at 256 (0.0096 against 0.0116 ms, session 63 call 5).
# carry ["build-carry/s64.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64 "" HEAD; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s64.tar.xz s64
# Predicted (H100): the sweep as session 63 call 5, Detect 768 ~0.031 and 1024 ~0.042 (dense
# now); pytest all pass; op_timing float64 1024 ~0.045 (torch ~0.051), 4096 ~0.84 (torch ~2.27);
# ncu at 256: Triangular's extra time in its two edge stages a tile (the per-element copies),
# its DMMA share like Detect's.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
{ python3 -c "import torch; print('torch', torch.__version__)" &&
  nice -n 19 python3 -m pip install --no-build-isolation --quiet . ; } > $OUT/b_python.log 2>&1 &
pypid=$!
for r in 1 2; do
  echo "== sweep $r" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both \
    --sizes 256,512,768,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
done
for s in triangular detect; do
  for n in 256 1024; do
    timeout 60 ncu --clock-control none --kernel-name regex:sm80_fp64 --launch-skip 1 \
      --launch-count 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section SourceCounters --import-source no -f -o /tmp/fp64_${s}_$n \
      $M/trimm bench --dtype fp64 --structure $s --sizes $n --runs 1 --warmup 1 --no-anchors \
      > /tmp/ncu_${s}_$n.log 2>&1
    echo "== ncu $s n=$n rc $? at $SECONDS s" >> $L
    ncu --import /tmp/fp64_${s}_$n.ncu-rep --page details 2>&1 |
      grep -E "sm80_fp64_kernel|Duration|Elapsed Cycles|SM Active|Issued Warp|No Eligible|Warp Cycles Per Issued" >> $L
    ncu --import /tmp/fp64_${s}_$n.ncu-rep --page source --csv --print-source sass \
      > /tmp/ncu_source_${s}_$n.csv 2>&1
    python3 scripts/ncu_source_summary.py /tmp/ncu_source_${s}_$n.csv 12 >> $L 2>&1
  done
done
echo "== python package + pytest ($SECONDS s)" >> $L
{ wait $pypid && (cd python/tests && timeout $((500 - SECONDS)) python3 -m pytest -q -rs .); } >> $OUT/b_python.log 2>&1
echo "pytest rc $? at $SECONDS s" >> $L; tail -4 $OUT/b_python.log >> $L
PYTHONUNBUFFERED=1 timeout 60 python3 scripts/op_timing.py 1024 4096 >> $L 2>&1
echo "op_timing rc $? at $SECONDS s" >> $L
grep -E "==|rc |trimm sm|reference|passed|failed|float64" $L | tail -c 10000
