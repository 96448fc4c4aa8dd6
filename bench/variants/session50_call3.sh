# Prepared in session 49 (no device lent): 16-bit Detect past n = 1920 as one dense launch split
# over cluster ranks (~3 min; independent of calls 1-2). carry ["build-carry", ".deps/openblas"]
# Binary: build-carry/s49dense.tar.xz, the throwaway probe bench/variants/s49_dense_ranks.patch on
# fb34777 (6 stages, kernels as main): TRIMM_S49_DENSE16_MAXN raises dispatch's one-dense-launch
# rule (n and work) past 1920; TRIMM_S49_DENSE_RANKS = 2..4 runs that ungated dense launch as
# clusters of r blocks a unit (sm90_16bit's split kernel, the schedule's own order) instead of
# the persistent layout.
# Why: at 2048 the dense schedule has 136 units of 32 stages, two waves on 132 SMs (session 48:
# 0.032 ms against the flags path's 0.0284-0.0296 on triangular inputs, 0.045 (0.88x GemmEx +
# triu) on noisy ones). Clusters of two: 272 blocks of 16 stages, three waves of 16 = 48 stage
# times instead of 64; of four: five waves of 8 = 40, plus each unit's reduction in DSMEM.
# Predicted, bf16 Detect, ms: 2048 ranks 2 0.024-0.026, ranks 4 0.022-0.025, on any input (one
# launch whatever A and B hold): under the flags path's 0.0284 (triangular) and far under its
# 0.045 (noisy). 2304 (171 units of 36): ranks 2 ~0.030 against ~0.040 persistent; 2560 (210 of
# 40): no gain (both 80 stage times). 1920 (120 units, one wave): ranks cost their reduction.
# Verdict: if ranks r wins at 2048-2304 on triangular inputs, land it as dispatch's rule (the
# split kernel for Detect's dense launch where the units take more than one wave and fewer than
# ~2.5), with the GpuDetect16 tests at those n (exact integers, noisy, NaN/Inf).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s49m s49dense; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
M=/tmp/v/s49m/trimm P=/tmp/v/s49dense/trimm L=$OUT/run.txt
bench() {  # label, binary, env... [-- bench options]; a failing run stops the script
  local label=$1 bin=$2 envs=() extra=(); shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "$1" = "--" ] && shift && extra=("$@")
  echo "== $label" >> $L
  env "${envs[@]}" timeout 60 $bin bench --dtype bf16 --sizes 1920,2048,2304,2560 --no-anchors \
    "${extra[@]}" > $OUT/last.txt 2>&1
  local rc=$?
  grep -E "trimm sm|GemmEx|rror|FAIL" $OUT/last.txt >> $L
  if [ $rc -ne 0 ]; then
    echo "rc $rc: stopping" >> $L; tail -5 $OUT/last.txt >> $L; cat $L; exit 1
  fi
}
for inputs in "" "--noisy"; do
  for round in 1 2; do
    bench "main ${inputs:-triangular}, round $round" $M X=0 -- --structure detect $inputs
    for r in 0 2 4; do
      bench "dense alone to 2560, ranks $r, ${inputs:-triangular}, round $round" $P \
        TRIMM_S49_DENSE16_MAXN=2560 TRIMM_S49_DENSE_RANKS=$r -- --structure detect $inputs
    done
  done
  bench "dense alone to 2560, ranks 3, ${inputs:-triangular}" $P \
    TRIMM_S49_DENSE16_MAXN=2560 TRIMM_S49_DENSE_RANKS=3 -- --structure detect $inputs
done
cat $L
