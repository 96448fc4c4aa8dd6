# Session 45, call 5 (~3 min): probe_sm90_bf16_wide with split plans (every unit 128×256, the long
# ones in two parts on two blocks, the first part's sums through global memory), against its own
# W=128 / W=256 skeletons and the landed sm90_16bit, two rounds, 4096-8192.
# build-carry/s45d.tar.xz: the probe; trimm from s45a.
# Predicted: W=256 split at 4096 ~43-45 us (2.28 MB a SM at ~35 B a cycle, the longest chain
# halved), against W=256 ~50 and the landed kernel ~48.5; at 6144-8192 a little better than W=256.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45d.tar.xz -C /tmp/v && tar -xJf build-carry/s45a.tar.xz -C /tmp/v
L=$OUT/run.txt
for round in 1 2; do
  echo "== round $round" >> $L
  timeout 150 /tmp/v/s45d/probe_sm90_bf16_wide 4096 5120 6144 8192 2>&1 | grep -E "W=|skipped|FAIL" >> $L
  timeout 60 /tmp/v/s45a/trimm bench --sizes 4096,5120,6144,8192 --dtype bf16 --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
