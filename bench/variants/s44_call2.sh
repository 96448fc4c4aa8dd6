# Session 44, call 2 (~6 min): the scan rewritten (each row's vectors issued kUnroll a lane
# before any is used, both triangles in one pass; shared with 16-bit Detect), the small kernel
# to 1216 (fp32) and 1792 (ieee). build-carry/s44b.tar.xz. Tests (fp32 Detect and dispatch,
# 16-bit Detect), sanitizers, the small-n sweep with anchors (both structures) and the forced
# scan path at 128-640 (where the scan starts to pay), two rounds; 16-bit Detect at 512, 1024,
# 4096 (session 21: 0.0172, 0.0213, 0.0936 ms).
# Predicted: the scan path's overhead over the band ~4-5 us at every n (call 1: 4 at 128 rising
# to 12-13 at 896): Detect 896 ~0.028 ms (1.65x), 1024 ~0.033; the scan pays from ~448-512;
# bf16 Detect 1024 ~0.017, 4096 ~0.085 (its scan 19 -> ~10 us).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s44b.tar.xz -C /tmp/v
V=/tmp/v/s44b
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
  timeout 120 $V/trimm bench --sizes 128,256,384,512,640,768,896,1024,1152,1216 --structure both 2>&1 | grep -E "^[0-9]" | grep -v "ieee\|STRMM\|diag-batched" >> $L
  echo "== forced scan path round $round" >> $L
  timeout 60 $V/trimm bench --sizes 128,256,384,448,512,576,640 --kernel simt_small_fp32 --precision auto --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
  echo "== bf16 round $round (both)" >> $L
  timeout 60 $V/trimm bench --sizes 512,1024,4096 --dtype bf16 --structure both 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
