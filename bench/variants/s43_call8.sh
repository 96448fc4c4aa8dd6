# Session 43, call 8 (~4 min): the exact path skips a stage whose A is all zero against a finite
# B (or the reverse), after a vote a warp (build-carry/s43g.tar.xz: trimm = Detect's exact path
# to 896, trimm_d2048 = to 2048). Tests of the small kernel and Detect, the sanitizers on the
# exact path, then Detect 128-2048 in both binaries (the triangular inputs skip every stage
# outside the band). Predicted: Detect 512 ~14 us, 896 ~27, 1024 ~32 (sm90_tf32x3 54);
# Triangular unchanged (12.8 at 512, 28.3 at 1024).
# Source of the skip: bench/variants/s43_exact_skip.patch on 1acd4ff (its comments trimmed).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43g.tar.xz -C /tmp/v
V=/tmp/v/s43g
L=$OUT/run.txt
timeout 150 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*:GpuTrtrmmDispatch.*' > $OUT/tests.txt 2>&1
echo "tests rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "FAILED|Failure" $OUT/tests.txt | head -5 >> $L
F='*simt_small_fp32_upper_n129:*simt_small_fp32_lower_n1000:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_lower_n64:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_lower_n129'
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  echo "== trimm round $round (both)" >> $L
  timeout 100 $V/trimm bench --sizes 256,512,640,768,896,1024 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
  echo "== trimm_d2048 round $round detect" >> $L
  timeout 100 $V/trimm_d2048 bench --sizes 896,1024,1280,1536,2048 --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
echo "== sm90_tf32x3 detect past 896 (trimm)" >> $L
timeout 60 $V/trimm bench --sizes 1024,1280,1536,2048 --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
cat $L
