# Session 47, call 7: the review's mends (s48f = main + the staged fix: the small kernel's dense
# mode only within one turn, n <= 640; GpuDetect16 at n = 700 and 896, the ungated sm80_16bit
# dense launch through dispatch with NaN/Inf; a batched noisy/non-finite dense test), then
# s48e (sm80_16bit's dense launch with clusters of any size, the rule to 1280^3: a variant built in
# /tmp, not committed) against s48c at 768-1280. Predicted: all pass; s48e 1024 ~0.016 (3 ranks in one
# wave instead of 4 in two).
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 300 /tmp/v/s48f/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48f test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
for bin in s48c s48e; do
  echo "== $bin bf16 detect" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --sizes 768,896,1024,1152,1280 --no-anchors 2>&1 |
    grep -E "^[0-9]" | grep trimm >> $L
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 1 /tmp/v/s48f/test_gpu_16bit \
  --gtest_filter='GpuDetect16Pinned.DenseAlone*:Inputs/GpuDetect16.*nonfinite*n700' > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1); $(grep -E '^\[  PASSED' $OUT/memcheck.txt)" >> $L
cat $L
