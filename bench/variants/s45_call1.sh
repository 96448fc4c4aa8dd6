# Session 45, call 1 (~6 min): session 44's prepared 16-bit Detect call (s45_detect16_call.sh:
# tests, memcheck, bf16/fp16 Detect at 256-896 with anchors, two rounds), then where precision
# tf32's call goes at 4096: ncu's duration of each kernel of one sm90_fp16x1 call (prepass
# launches, the product, the corrections), and of one sm90_16bit bf16 call beside it.
# Predicted: fp16x1 prepass ~45 us (two launches), product ~60, the rest < 10; bf16 product ~46.
bash bench/variants/s45_detect16_call.sh
V=/tmp/v/s45a
L=$OUT/run.txt
echo "== ncu tf32 4096 (sm90_fp16x1, workspace)" >> $L
timeout 120 ncu --metrics gpu__time_duration.sum $V/trimm bench --sizes 4096 --precision tf32 --workspace --no-anchors --runs 1 --warmup 0 2>&1 | grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | grep -v -E "flush|fill" | head -40 >> $L
echo "== ncu bf16 4096" >> $L
timeout 120 ncu --metrics gpu__time_duration.sum $V/trimm bench --sizes 4096 --dtype bf16 --no-anchors --runs 1 --warmup 0 2>&1 | grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | head -20 >> $L
tail -60 $L
