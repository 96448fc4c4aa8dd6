# Session 48, call 8: the review's mends (s48f = f49cd29 + the working tree): dispatch's dense rule
# per kernel (sm90_16bit's to 1920 / 2048³, the others' still to 896³), the flags path's gated
# dense launch on sm90_16bit's dense mode after sm90_16bit, the gated tiled launch's batch in one
# wave, new tests (sm90_16bit's dense launch direct to 1920 in both types, gated; batches through
# dispatch with TMA rows and a shared A; the scan's NaN/Inf outside in both types), and --noisy
# for 16-bit data in the bench.
# Predicted: tests pass, memcheck clean; triangular Detect as call 7 (2048 0.0296, 4096 ~0.072);
# noisy Detect at 4096 (sm90_16bit's gated dense launch) ~0.13-0.15 ms against GemmEx + triu 0.21.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48f.tar.xz -C /tmp/v
X=/tmp/v/s48f T=/tmp/v/s48f/trimm L=$OUT/run.txt
timeout 240 $X/test_gpu_16bit --gtest_filter='*Detect16*:GpuTrtrmm16Selected.*:GpuTrtrmm16Errors.*' > $OUT/tests16.txt 2>&1
echo "s48f Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
F='GpuDetect16Pinned.Sm90ScanReadsTheOtherTrianglesAlone:GpuDetect16Pinned.DenseAloneBatchesAreTheirDenseProducts'
TRIMM_TEST_MAX_N=1000 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 $X/test_gpu_16bit --gtest_filter="$F" > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1); $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/memcheck.txt)" >> $L
{
echo "== bf16 Detect"; $T bench --dtype bf16 --structure detect --no-anchors --sizes 1024,2048,3072,4096,8192
echo "== bf16 Detect, noisy"; $T bench --dtype bf16 --structure detect --no-anchors --noisy --sizes 1024,2048,3072,4096
} > $OUT/bench.txt 2>&1
echo "bench rc $?" >> $L
grep -E "^==|trimm sm|reference" $OUT/bench.txt | cut -c1-110 >> $L
cat $L
