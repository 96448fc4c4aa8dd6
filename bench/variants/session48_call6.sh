# Session 48, call 6: after call 5's scan and exact-launch changes (s48d = 9d33909's code), where
# the dense launch alone and the flags path cross (dispatch's dense rule stops at 2048³): bf16
# Detect by dispatch (dense to 2048) and with sm90_16bit forced (the flags path) at 1536-2304,
# two rounds; then ncu's durations of one Detect call at 4096 in place.
# Predicted: flags 1792 ~0.026, 2048 ~0.029-0.030 (dense 0.0313-0.0322: the rule may have to
# stop below 2048); ncu at 4096: scan ~10-12 us, exact gated off ~2-3 us.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48d.tar.xz -C /tmp/v
T=/tmp/v/s48d/trimm L=$OUT/run.txt
for r in 1 2; do
  echo "== round $r: dispatch" >> $L
  $T bench --dtype bf16 --structure detect --no-anchors --sizes 1536,1664,1792,1920,2048,2176 2>&1 | grep -E "trimm sm|reference" >> $L
  echo "== round $r: flags (sm90_16bit forced)" >> $L
  $T bench --dtype bf16 --structure detect --no-anchors --kernel sm90_16bit --sizes 1536,1664,1792,1920,2048,2176 2>&1 | grep -E "trimm sm" >> $L
done
echo "== ncu bf16 detect 4096" >> $L
timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  $T bench --sizes 4096 --dtype bf16 --structure detect --no-anchors --runs 2 --warmup 1 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | cut -c1-110 | grep -A1 -E "scan_kernel|sm90_bf16|sm80_16bit|tiled_product" >> $L
cat $L
