# Session 43, call 9 (~2 min): probe_sm90_bf16_wide --paths (build-carry/s43h.tar.xz): each
# width's loads alone (no wgmma) and compute alone (no loads, stale operands) at 4096 and 8192,
# two rounds. Question: what holds the 128x256 skeleton at 50 us at 4096 (6.4 TB/s, ~27 us of
# tensor work)? Predicted: W=256 no loads ~35 us, no wgmma ~38 us at 4096.
mkdir -p /tmp/v && tar -xJf build-carry/s43h.tar.xz -C /tmp/v
L=$OUT/run.txt
for round in 1 2; do
  echo "== round $round" >> $L
  timeout 150 /tmp/v/s43h/probe_sm90_bf16_wide --paths 4096 8192 >> $L 2>&1; echo "rc $?" >> $L
done
cat $L
