# Session 48, call 7: the landing form (s48e: 9d33909 + the dense rule stopping at n = 1920 for
# one problem, work up to 2048³): Detect16 tests, memcheck on the flags path at n = 2048 (the new
# scan and the one-wave exact launch, dispatch's and forced kernels'), then the 16-bit Detect
# sweep (bf16 twice, fp16 once) for RESULTS and the README.
# Predicted: all pass, 0 errors; bf16 Detect 2048 ~0.030 (flags), 1920 ~0.019 (dense), 4096
# ~0.0725, 8192 ~0.394; >= 1.0x GemmEx + triu from 384 up (512: ~1.0x, the small kernel's).
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48e.tar.xz -C /tmp/v
X=/tmp/v/s48e T=/tmp/v/s48e/trimm L=$OUT/run.txt
timeout 200 $X/test_gpu_16bit --gtest_filter='*Detect16*:GpuTrtrmm16Selected.*:GpuTrtrmm16Errors.*' > $OUT/tests16.txt 2>&1
echo "s48e Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
F='Inputs/GpuDetect16.*/nonfinite_upper_n2048:Inputs/GpuDetect16.*/triangular_lower_n2048'
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $X/test_gpu_16bit --gtest_filter="$F" > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1); $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/memcheck.txt)" >> $L
S=256,384,512,640,768,1024,1280,1536,1792,1920,2048,2560,3072,4096,8192
{
for r in 1 2; do echo "== bf16 Detect round $r"; $T bench --dtype bf16 --structure detect --no-anchors --sizes $S; done
echo "== fp16 Detect"; $T bench --dtype fp16 --structure detect --no-anchors --sizes $S
} > $OUT/bench.txt 2>&1
echo "bench rc $?" >> $L
grep -E "^==|trimm sm|trimm simt|reference" $OUT/bench.txt | cut -c1-100 >> $L
cat $L
