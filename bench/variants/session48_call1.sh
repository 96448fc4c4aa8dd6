# Session 48, call 1: sm90_16bit's dense mode (Path::Dense: every unit's band all of k, no masks)
# as 16-bit Detect's one launch. Binaries s48a: the tree + dispatch's dense Detect rule raised to
# 3072³ (experiment only) and S48_DENSE16=<kernel> (experiment only) naming the dense kernel.
# Predicted (bf16, ms): sm90 dense 512 ~0.008, 768 ~0.010, 1024 ~0.012 (flags 0.0203, GemmEx +
# triu 0.0138), 1536 ~0.016 (flags 0.0264), 2048 ~0.024 (flags ~0.034), 3072 > flags.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48a.tar.xz -C /tmp/v
T=/tmp/v/s48a/trimm L=$OUT/run.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> $L
timeout 240 /tmp/v/s48a/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48a Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
S="256,384,512,640,768,896,1024,1280,1536,1792,2048,2560,3072"
B="bench --dtype bf16 --no-anchors"
{
echo "== A: dispatch's rule (dense sm90_16bit where it is chosen)"; $T $B --sizes $S --structure detect
echo "== B: S48_DENSE16=sm90_16bit"; S48_DENSE16=sm90_16bit $T $B --sizes $S --structure detect
echo "== C: S48_DENSE16=sm80_16bit"; S48_DENSE16=sm80_16bit $T $B --structure detect --sizes 512,640,768,896,1024,1280
echo "== D: flags path (sm90_16bit forced)"; $T $B --structure detect --kernel sm90_16bit --sizes 768,1024,1280,1536,1792,2048,2560,3072
echo "== E: triangular (dispatch)"; $T $B --sizes 512,1024,1536,2048,3072
echo "== A again"; $T $B --sizes $S --structure detect
} > $OUT/bench.txt 2>&1
echo "bench rc $?" >> $L
grep -E "^== |trimm|reference" $OUT/bench.txt >> $L
cat $L
