# Session 45, call 3 (~1 min): probe_sm90_ingest_rate's footprint curve (call 2: ~35 B a cycle a SM
# at 32 MB whatever the path, 60 for 1D copies at 2 MB) and whether blocks that read the same
# bytes at the same time (--share G) get more. build-carry/s45c.tar.xz: the probe.
# Predicted: a knee between 8 and 16 MB (a copy of the working set in each L2 half); share G
# helps at 32 MB only if the near copy is kept long enough for the group's reads.
mkdir -p /tmp/v && tar -xJf build-carry/s45c.tar.xz -C /tmp/v
P=/tmp/v/s45c/probe_sm90_ingest_rate
L=$OUT/run.txt
timeout 60 $P --modes tb 4096 2944 2048 1408 1024 >> $L 2>&1
for g in 2 4 8 16 132; do timeout 30 $P --modes tb --share $g 4096 >> $L 2>&1; done
timeout 30 $P --modes tb --share 4 2048 >> $L 2>&1
cat $L
