# Session 48, call 5: 16-bit Detect past the dense rule, two changes (s48d = e5ce706 + the
# working tree): the scan's pairs tested for NaN/Inf in three instructions and the other
# triangles' vectors absorbed without telling columns apart (call 3's ncu: the scan at 1.65 TB/s
# with the SMs 69 % busy, bound by instructions); a gated tiled launch (the exact path) in one
# wave of resident blocks (call 4: 2112 -> 132 blocks took ~5 us off at 3072-4096).
# Baseline s48c without its env (e5ce706). Predicted: bf16 Detect 4096 0.0848 -> ~0.071-0.075,
# 8192 0.42 -> ~0.39, 3072 0.057 -> ~0.048; tests pass, memcheck clean.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48d.tar.xz -C /tmp/v && tar -xJf build-carry/s48c.tar.xz -C /tmp/v
X=/tmp/v/s48d L=$OUT/run.txt
timeout 200 $X/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48d Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -60 >> $L
F='GpuDetect16Pinned.*:GpuDetect16Gate.*'
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $X/test_gpu_16bit --gtest_filter="$F" > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1); $(grep -E '^\[  PASSED|^\[  FAILED' $OUT/memcheck.txt)" >> $L
for r in 1 2; do
  for b in s48c s48d; do
    echo "== $b round $r" >> $L
    /tmp/v/$b/trimm bench --dtype bf16 --structure detect --no-anchors --sizes 2304,3072,4096,8192 2>&1 | grep -E "trimm sm|reference" >> $L
  done
done
echo "== s48d fp16" >> $L
$X/trimm bench --dtype fp16 --structure detect --no-anchors --sizes 3072,4096,8192 2>&1 | grep -E "trimm sm|reference" >> $L
cat $L
