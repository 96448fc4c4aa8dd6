# Session 42, call 2 (~5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s42b.tar.xz
# holds base/trimm (main at 6332c7f) and er/trimm (base + bench/variants/s42_early_release.patch:
# a stage's slot freed without waiting for its wgmmas, a timing probe with wrong results).
# 1. er against base, three rounds (bf16; pairs at 3072-6144, bands at 9216).
# 2. The README's anchored sweep on base, every precision, one call (as session 36's call 3).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s42b.tar.xz -C /tmp/v
L=$OUT/run.txt
for r in 1 2 3; do for v in base er; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,6144,9216 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s  ", $1, $6}' /tmp/b.txt >> $L; echo >> $L
done; done
B=/tmp/v/base/trimm
S=256,512,1024,2048,4096,8192,16384
timeout 150 $B bench --sizes $S --structure both --workspace --json > $OUT/sweep-fp32.json 2> $OUT/sweep-fp32.err; echo "fp32 rc $?" >> $L
timeout 90 $B bench --sizes $S --precision tf32 --workspace --json > $OUT/sweep-tf32.json 2> $OUT/sweep-tf32.err; echo "tf32 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype bf16 --json > $OUT/sweep-bf16.json 2> $OUT/sweep-bf16.err; echo "bf16 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype fp16 --json > $OUT/sweep-fp16.json 2> $OUT/sweep-fp16.err; echo "fp16 rc $?" >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
cat $L
