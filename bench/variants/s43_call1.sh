# Session 43, call 1 (~4 min): the 128x256 probe (bench/probes/sm90_bf16_wide.cu) against its own
# 128x128 skeleton and the landed sm90_16bit (trimm of build-carry/s43a.tar.xz, main 0a999aa plus
# the probe), bf16, n = 2048-8192. Predicted: W=256 at 4096 41-45 us, W=128 52-56; W=256 loses
# at 2048/3072 (its longest unit), wins 15-20 % at 6144/8192 (bytes).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43a.tar.xz -C /tmp/v
L=$OUT/run.txt
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv >> $L 2>&1
cuobjdump -sass /tmp/v/s43/probe_sm90_bf16_wide | grep -c HGMMA >> $L 2>&1
for round in 1 2; do
  echo "== probe round $round" >> $L
  timeout 150 /tmp/v/s43/probe_sm90_bf16_wide >> $L 2>&1; echo "probe rc $?" >> $L
  echo "== trimm round $round" >> $L
  timeout 100 /tmp/v/s43/trimm bench --sizes 2048,3072,4096,6144,8192 --dtype bf16 \
    --kernel sm90_16bit --no-anchors >> $L 2>&1; echo "bench rc $?" >> $L
done
cat $L
