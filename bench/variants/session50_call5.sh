# Prepared in session 49 (no device lent): the fused tf32 design's per-stage promotion priced in
# sm90_fp16x1's product (~1.5 min). carry ["build-carry", ".deps/openblas"]
# Binary: build-carry/s49prom.tar.xz, the throwaway probe bench/variants/s49_promote.patch on
# d159509: sm90_fp16x1's consumers put each stage into fresh registers, retire it at once (wait
# 0) and promote it with one FFMA an element by a row multiplier (1, from device memory: C the
# same up to the sums' rounding, each stage summed from zero, so rel_err close to main's, not
# bit-equal; the bench's tf32 check guards it), instead of letting the tensor cores sum the
# band (docs/sm90_fp16x1_fused_plan.md, "Registers"); the other consumer's wgmmas fill the
# tensor cores meanwhile (CUTLASS's and DeepGEMM's FP8 promotion take the same shape). Two sets
# alternating (a stage in flight while the last is promoted) made ptxas serialize every wgmma
# (C7514), so that form was not built.
# Predicted: 4096 +0-3 us over main's ~0.1156 (the product waits on its loads, ~590 cycles a
# stage against 512 of tensor work, session 40), 8192 +0-2 %.
# Verdict: <= +3 us keeps the plan's 0-3 us for promotion; more goes into its budget.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s49m s49prom; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
M=/tmp/v/s49m/trimm P=/tmp/v/s49prom/trimm L=$OUT/run.txt
for round in 1 2 3; do
  for b in "main $M" "promote $P"; do
    set -- $b
    echo "== $1, round $round" >> $L
    timeout 90 $2 bench --sizes 2048,4096,8192 --kernel sm90_fp16x1 --no-anchors > $OUT/last.txt 2>&1
    rc=$?
    grep -E "trimm sm|rror|FAIL" $OUT/last.txt >> $L
    [ $rc -ne 0 ] && { echo "rc $rc: stopping" >> $L; tail -5 $OUT/last.txt >> $L; cat $L; exit 1; }
  done
done
cat $L
