# Session 48, call 2: the landing form (s48b: dense Detect alone to 2048³ of work; sm90_16bit's
# dense launch where TMA can address the operands past n = 512 or dispatch chose it).
# Tests: Detect16 (88), then memcheck, racecheck and synccheck on sm90_16bit's dense launch
# (the pinned test: n = 1, 17 x 3, 129, 300 x 2, 1000; the Gate test's sm90_16bit dense case).
# Bench: bf16 and fp16 Detect 384-2560, batches (8 x 512, 8 x 1024, 2 x 1536), the flags path at
# 2048 and 2304 (forced) beside dispatch's.
# Predicted: all pass, 0 errors/hazards; bf16 as call 1 (768 0.0106, 1024 0.0127, 1536 0.0156,
# 2048 0.032); fp16 within 3 %; 8 x 1024 dense ~0.015-0.020 against GemmStridedBatchedEx + triu
# ~0.035; 2304 dense ~0.036 against flags ~0.038.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48b.tar.xz -C /tmp/v
X=/tmp/v/s48b T=/tmp/v/s48b/trimm L=$OUT/run.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> $L
timeout 200 $X/test_gpu_16bit --gtest_filter='*Detect16*:GpuTrtrmm16Selected.*:GpuTrtrmm16Errors.*' > $OUT/tests16.txt 2>&1
echo "s48b Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
F='GpuDetect16Pinned.Sm90DenseLaunchIsTheDenseProduct'
for tool in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 1 $X/test_gpu_16bit --gtest_filter="$F" > $OUT/$tool.txt 2>&1
  echo "$tool rc $?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/$tool.txt | tail -1); $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/$tool.txt)" >> $L
done
B="bench --no-anchors"
{
echo "== bf16 Detect"; $T $B --dtype bf16 --structure detect --sizes 384,512,640,768,1024,1536,1792,2048,2304,2560
echo "== fp16 Detect"; $T $B --dtype fp16 --structure detect --sizes 512,640,768,1024,1536,2048
echo "== flags (forced)"; $T $B --dtype bf16 --structure detect --kernel sm90_16bit --sizes 2048,2304
echo "== batch 8"; $T $B --dtype bf16 --structure both --batch 8 --sizes 512,1024
echo "== batch 8, flags (forced)"; $T $B --dtype bf16 --structure detect --kernel sm90_16bit --batch 8 --sizes 1024
echo "== batch 2"; $T $B --dtype bf16 --structure both --batch 2 --sizes 1536
} > $OUT/bench.txt 2>&1
echo "bench rc $?" >> $L
cat $L
