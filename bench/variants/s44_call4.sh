# Session 44, call 4 (~5 min): simt_small_fp32's Detect without a scan launch or a memset: its
# structured launch reads A's and B's rows beside the band (a share a block, while its first
# stage's loads are in flight) and flags them in a word tagged with the call's epoch; the
# every-k launch (a programmatic dependent) recomputes only where anything was flagged.
# build-carry/s44c.tar.xz. Tests (fp32 Detect and dispatch, 16-bit Detect: its scan now shares
# the row reader), sanitizers, the small-n sweep with anchors (both structures) and the forced
# fused path at 128-640, two rounds.
# Predicted (calls 2-3: scan launch ~6 us, gated-off launch ~2-3, memset the rest of ~10-12):
# Detect = band + ~3-4 us: 576 ~0.018 ms (1.2x), 896 ~0.027 (1.7x), 1024 ~0.032, 1216 ~0.045.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s44c.tar.xz -C /tmp/v
V=/tmp/v/s44c
L=$OUT/run.txt
timeout 60 $V/test_dispatch > $OUT/tests.txt 2>&1
echo "test_dispatch rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 200 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*:GpuTrtrmmDispatch.*' >> $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' >> $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "FAILED|Failure" $OUT/tests.txt | head -8 >> $L
F='Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_upper_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_lower_n64:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n129:GpuDetectPinned.BatchesAreScannedWhole:GpuDetectPinned.TheSmallKernelsScanTakesRowsOfAnyAlignment'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=130 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
TRIMM_TEST_MAX_N=300 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*' > $OUT/san.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
for round in 1 2; do
  echo "== dispatch round $round (both)" >> $L
  timeout 120 $V/trimm bench --sizes 128,256,384,448,512,576,640,768,896,1024,1152,1216 --structure both 2>&1 | grep -E "^[0-9]" | grep -v "ieee\|STRMM\|diag-batched" >> $L
  echo "== forced fused path round $round" >> $L
  timeout 60 $V/trimm bench --sizes 128,256,384,448,512,576,640 --kernel simt_small_fp32 --precision auto --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
echo "== bf16 (both)" >> $L
timeout 60 $V/trimm bench --sizes 512,1024 --dtype bf16 --structure both 2>&1 | grep -E "^[0-9]" >> $L
cat $L
