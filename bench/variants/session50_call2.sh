# Prepared in session 49 (no device lent): the next device session's second call, only if call 1
# (session50_call1.sh) kept the fused tf32 design alive (bf16 4096 with 64 MiB converted beside
# the product at <= 0.060 ms). ~3 min. carry ["build-carry", ".deps/openblas"]
# Binary: build-carry/s49fx.tar.xz, the throwaway probe bench/variants/s49_fx_probe.patch on
# f654f8f: docs/sm90_fp16x1_fused_plan.md's step 1 without scales. sm90_16bit's pair launches
# (Upper, n % 128 == 0; 5 stages) with TRIMM_PROBE_FX set: helper warps 10-11 convert fp32
# copies of the stage tiles (widened from the 16-bit inputs once, so C is unchanged) back into
# the 16-bit inputs in the host's need-time order, a flag per tile (the call's epoch); the
# producers wait for a stage's flags before its TMA loads.
# 1. Ordering: TRIMM_PROBE_FX_POISON=1 writes NaN over every task's tile before each call (a
#    launch of its own, in the timed call: ignore those times); any tile read before its
#    conversion puts NaN into C: after every call a kernel counts NaN in C's upper triangle and
#    the probe prints "PROBE s49 fx poison: ... N NaN in C (bad of calls)" (every 10th call, and
#    every bad one). A flag a producer waits on for ~1 s traps with its index (a missing task).
#    Any failing run stops the script (timeout 60 s a run).
# 2. Time, plain TRIMM_PROBE_FX (the planes already hold the values: the same traffic as the
#    fused kernel, minus its scales and promotion; the epoch is the launch's own parameter, no
#    copy in the timed call). Predicted bf16 4096: call 1's 64 MiB time
#    + 2-5 us (the model's stalls at need-time order: 3-6 us; flag round trips), i.e.
#    ~0.055-0.065 if call 1 gave ~0.053-0.058. 3072 alike in proportion.
# Verdict: 4096 <= 0.065 ms: build step 2 (scales, promotion, the fallback flag) as a library
# kernel; > 0.070: the design does not reach 0.075 once scales and launch costs are added.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s49m s49fx; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
M=/tmp/v/s49m/trimm P=/tmp/v/s49fx/trimm L=$OUT/run.txt
bench() {  # label, binary, dtype, env...
  local label=$1 bin=$2 dt=$3; shift 3
  echo "== $label ($dt)" >> $L
  env "$@" timeout 60 $bin bench --dtype $dt --sizes 3072,4096 --no-anchors > $OUT/last.txt 2>&1
  local rc=$?
  grep -E "trimm sm|PROBE|rror|FAIL" $OUT/last.txt >> $L
  if [ $rc -ne 0 ]; then
    echo "rc $rc: stopping" >> $L; tail -5 $OUT/last.txt >> $L; cat $L; exit 1
  fi
}
for dt in bf16 fp16; do
  bench "fx poison (ordering check; times include the poison launch)" $P $dt \
    TRIMM_PROBE_FX=1 TRIMM_PROBE_FX_POISON=1
done
for round in 1 2; do
  bench "main (6 stages), round $round" $M bf16 X=0
  bench "s49fx, probe off (5 stages), round $round" $P bf16 X=0
  bench "fx, round $round" $P bf16 TRIMM_PROBE_FX=1
done
bench "fx" $P fp16 TRIMM_PROBE_FX=1
cat $L
