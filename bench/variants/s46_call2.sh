# Prepared in session 45, not run: precision tf32's call at 4096 split into its kernels as they run
# in place (session 45's call 1 ran ncu with its defaults: clocks locked at base, caches flushed
# before each kernel; sum 137 us against the call's 116). ncu with --clock-control none
# --cache-control none, two runs of one call after a warm-up, then the same for bf16 (sm90_16bit)
# and fp32 with the workspace (sm90_fp16x3) for scale. Any trimm binary of session 45 or later
# (build-carry/s45a.tar.xz or s46a.tar.xz; carry ["build-carry", ".deps/openblas"]).
# Predicted: sm90_fp16x1's product ~55-60 us, its two prepass launches ~45 us together.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
B=${BIN:-s46a}
mkdir -p /tmp/v && tar -xJf build-carry/$B.tar.xz -C /tmp/v
T=/tmp/v/$B/trimm
L=$OUT/run.txt
for args in "--precision tf32 --workspace" "--dtype bf16" "--precision fp32 --workspace"; do
  echo "== ncu 4096 $args" >> $L
  timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    $T bench --sizes 4096 $args --no-anchors --runs 2 --warmup 1 2>&1 |
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | cut -c1-110 | head -80 >> $L
done
cat $L
