# Session 48, call 9: call 8 (s48g = its tree + sm90_16bit's gated dense launch as a programmatic dependent, as sm80_16bit's): dispatch's dense rule
# per kernel (sm90_16bit's to 1920 / 2048³, the others' still to 896³), the flags path's gated
# dense launch on sm90_16bit's dense mode after sm90_16bit, the gated tiled launch's batch in one
# wave, new tests (sm90_16bit's dense launch direct to 1920 in both types, gated; batches through
# dispatch with TMA rows and a shared A; the scan's NaN/Inf outside in both types), and --noisy
# for 16-bit data in the bench.
# Predicted: call 8 lost 2-2.5 us at 3072-4096 on triangular inputs against call 7 (sm80_16bit's
# gated launch, a programmatic dependent); with PDL back: call 7's times (3072 0.0465, 4096 ~0.072).
# Noisy inputs: as call 8 (4096 0.171 ms).
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48g.tar.xz -C /tmp/v
X=/tmp/v/s48g T=/tmp/v/s48g/trimm L=$OUT/run.txt
timeout 150 $X/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48g Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
{
for r in 1 2; do echo "== bf16 Detect round $r"; $T bench --dtype bf16 --structure detect --no-anchors --sizes 2048,3072,4096,8192; done
echo "== bf16 Detect, noisy"; $T bench --dtype bf16 --structure detect --no-anchors --noisy --sizes 1024,2048,3072,4096
} > $OUT/bench.txt 2>&1
echo "bench rc $?" >> $L
grep -E "^==|trimm sm|reference" $OUT/bench.txt | cut -c1-110 >> $L
cat $L
