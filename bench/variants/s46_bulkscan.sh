# Session 46, device call 2: sm90_fp16x3's Detect scan in the product's helper warps by 1D bulk
# copies into shared memory (scan_outside_bulk) instead of a launch of its own between the
# prepass's two. build-carry/s46b: trimm and test_gpu of the working tree (AnyFlag + the bulk
# scan + GpuDetectPinned running sm90_fp16x3), against s46a's trimm (the scan launch) in the
# same call. carry ["build-carry", ".deps/openblas"].
# Predicted: tests pass, sanitizers clean; fp32 Detect with the workspace at 4096 0.206 -> ~0.185
# ms (the scan's ~20 µs of DRAM time hidden under the product; Triangular + a gated launch);
# Triangular unchanged.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s46a s46b; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
V=/tmp/v/s46b
L=$OUT/run.txt
timeout 200 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:GpuTrtrmmDispatch.*:*LostElements*' > $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A6 $OUT/tests.txt | head -40 >> $L
F='Inputs/GpuDetect.Noisy_Upper_n129:Inputs/GpuDetect.Dense_Lower_n129:Inputs/GpuDetect.NonFinite_Upper_n1000:Inputs/GpuDetect.Triangular_Lower_n1000'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=1000 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_$tool.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  for bin in s46a s46b; do
    echo "== $bin round $round" >> $L
    timeout 90 /tmp/v/$bin/trimm bench --sizes 3072,4096,8192 --kernel sm90_fp16x3 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
  done
done
cat $L
