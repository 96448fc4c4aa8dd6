# Session 45, call 4 (~1 min): probe_sm90_ingest_rate's sharing patterns at 32 MB (call 3: two
# blocks reading the same boxes at the same time take 50 B a cycle each, against 35 alone).
# pair: A's boxes shared by two blocks, B's not (sm90_16bit's pairs, no multicast); quad: a 2 × 2 of
# tiles, every box shared by two; far: blocks b and b + 66 share everything.
# Predicted: quad ~50 (every byte shared), pair between (~41), far as share 2 unless the pair
# must sit on one TPC.
mkdir -p /tmp/v && tar -xJf build-carry/s45c.tar.xz -C /tmp/v
P=/tmp/v/s45c/probe_sm90_ingest_rate
L=$OUT/run.txt
for pat in pair quad far; do timeout 30 $P --modes tb --pattern $pat 4096 >> $L 2>&1; done
timeout 30 $P --modes tb --share 2 4096 >> $L 2>&1
timeout 30 $P --modes tb 4096 >> $L 2>&1
timeout 30 $P --modes tb --pattern quad --stages 128 4096 >> $L 2>&1
cat $L
