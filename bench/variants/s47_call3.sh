# Session 47, call 3: what would a single dense launch cost for 16-bit Detect at small n?
# Session 21's finding: sm80_16bit's dense mode (every k, tensor cores) already gives the dense
# product's NaN/Inf pattern on the H200, so on sm_90 one such launch is the whole Detect answer,
# without scan, flags or gated launches. Its n^3 flops (upper tiles, all k) against the
# structured n^3/3 plus ~8 us of scan and gated launches: predicted to win below ~1536.
# Measured here: bf16 clean (triangular and detect, anchors), noisy Detect (the dense launch
# runs) and ncu durations of each launch of noisy Detect.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for f in build-carry/*.tar.xz; do tar -xJf $f -C /tmp/v; done
L=$OUT/run.txt
T=/tmp/v/s47a/trimm
S=256,512,768,1024,1280,1536,2048,3072
echo "== bf16 clean, both" >> $L
timeout 120 $T bench --dtype bf16 --structure both --sizes $S 2>&1 | grep -E "^[0-9]" >> $L
echo "== bf16 noisy detect" >> $L
timeout 120 $T bench --dtype bf16 --structure detect --noisy --sizes $S 2>&1 | grep -E "^[0-9]" >> $L
echo "== bf16 noisy detect, sm80_16bit forced" >> $L
timeout 120 $T bench --dtype bf16 --structure detect --noisy --kernel sm80_16bit --sizes $S 2>&1 | grep -E "^[0-9]" >> $L
for n in 512 1024 2048; do
  echo "== ncu noisy detect $n" >> $L
  timeout 100 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    $T bench --dtype bf16 --structure detect --noisy --sizes $n --no-anchors --runs 2 --warmup 1 2>&1 |
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | paste - - | grep -v "cli::\|naive\|xmma\|cutlass\|gemm" |
    awk '{print $1, $2, $3, $NF}' | tail -8 >> $L
done
cat $L
