# Session 43, call 2 (~4 min): probe_sm90_bf16_wide with mixed plans (128x256 units up to a
# threshold of stages, the longer ones as 128x128 halves on their own blocks; build-carry/s43b.tar.xz)
# against W=128, W=256 and the landed sm90_16bit. Predicted: mixed at 4096 46-49 us against the
# W=128 skeleton's 53; at 6144/8192 about W=256's.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43b.tar.xz -C /tmp/v
L=$OUT/run.txt
cuobjdump -sass /tmp/v/s43/probe_sm90_bf16_wide | grep -c HGMMA >> $L 2>&1
for round in 1 2; do
  echo "== probe round $round" >> $L
  timeout 200 /tmp/v/s43/probe_sm90_bf16_wide 3072 4096 5120 6144 8192 >> $L 2>&1; echo "probe rc $?" >> $L
done
timeout 100 /tmp/v/s43/trimm bench --sizes 3072,4096,5120,6144,8192 --dtype bf16 \
  --kernel sm90_16bit --no-anchors >> $L 2>&1; echo "bench rc $?" >> $L
cat $L
