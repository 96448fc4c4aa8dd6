# Prepared in session 50 (no device lent); optional, after call 1 (~5-7 min).
# carry ["build-carry", ".deps/openblas"]
# 1. The KernelBench file has not been through scripts/kernelbench_eval.py since session 33
#    (13.21x, 5/5; 13.15-13.33x in session 32) and has been regenerated with every kernel change
#    since. Predicted: 5/5 trials, ModelNew ~0.200-0.205 ms mean, ~13.3-13.7x (its path,
#    sm90_fp16x3 under Detect, moved ~-1 us in session 46; the rest is host latency).
# 2. A lead from session 50's README check: Detect with sm90_fp16x3's planes (the KernelBench
#    path) took 0.2002-0.2010 ms at 4096 in session 46 against 0.1788-0.1799 for the structured
#    call in session 42: ~12 % over issue #4's 10 % bar, from two sessions. Side by side here,
#    twice, on s49m's trimm (main's kernels): forced sm90_fp16x3, --structure both.
#    Predicted: triangular 0.178-0.181, detect 0.199-0.202 (+11-13 %). If confirmed, the cost
#    is the helper warps' 64 MB scan of the other triangles sharing DRAM with a product that
#    streams its planes (session 46's finding); record it and weigh it against the bar.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s49m.tar.xz -C /tmp/v
L=$OUT/run.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv >> $L
for round in 1 2; do
  echo "== sm90_fp16x3 forced, triangular and detect, round $round" >> $L
  timeout 120 /tmp/v/s49m/trimm bench --sizes 4096 --kernel sm90_fp16x3 --structure both \
    --no-anchors > $OUT/detect_lead_$round.txt 2>&1
  echo "rc $?" >> $L
  grep -E "trimm|reference|FAIL|rror" $OUT/detect_lead_$round.txt >> $L
done
STEPS=kernelbench bash scripts/device.sh
cat $L; tail -15 $OUT/summary.txt
