# Prepared in session 43, not run (the device time was spent):  probe_sm90_bf16_wide --ring (build-carry/s43j.tar.xz): the loads
# alone (no wgmma) with 2 to all slots of each width's ring, at 4096 and 8192, two rounds.
# Question (call 9): is the ~60 GB/s into each SM the bytes in flight against the latency
# (time falls with every slot) or a cap (it stops falling)? Predicted: a cap, flat from 4 slots
# (128x128) / 3 slots (128x256).
mkdir -p /tmp/v && tar -xJf build-carry/s43j.tar.xz -C /tmp/v
L=$OUT/run.txt
for round in 1 2; do
  echo "== round $round" >> $L
  timeout 120 /tmp/v/s43j/probe_sm90_bf16_wide --ring 4096 8192 2>&1 | grep -E "W=|rc" >> $L
done
cat $L
