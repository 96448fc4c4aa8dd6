# Session 46, device call 4: the landing tree (build-carry/s46d: trimm, test_gpu, test_gpu_16bit):
# scan::entry_flags shared by the 16-bit scan launch and share_flags; sm90_fp16x3's Detect scan
# in its helper warps by bulk copies, 3 slots of 2 KB a warp in the union with the correction
# staging. carry ["build-carry", ".deps/openblas"].
# Predicted: every test passes, sanitizers clean; fp16x3 times as call 2's s46b.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s46d.tar.xz -C /tmp/v
V=/tmp/v/s46d
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A6 $OUT/tests16.txt | head -20 >> $L
timeout 200 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:*LostElements*:*/GpuTrtrmm.*/sm90_fp16x3*' > $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A6 $OUT/tests.txt | head -20 >> $L
TRIMM_TEST_MAX_N=300 timeout 80 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*' > $OUT/san16.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san16.txt | tr '\n' ' ')" >> $L
F='Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_lower_n1000:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_upper_n1000:GpuLostElementsDetect.*'
for tool in racecheck synccheck; do
  TRIMM_TEST_MAX_N=1000 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_$tool.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  echo "== s46d round $round" >> $L
  timeout 90 $V/trimm bench --sizes 3072,4096,8192 --kernel sm90_fp16x3 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v reference >> $L
done
cat $L
