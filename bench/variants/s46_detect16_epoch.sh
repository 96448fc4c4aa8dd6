# Session 46, device call 7: 16-bit Detect's scan path without its memset: the scan launch, the
# gated launches and sm90_16bit's output flags all through the call's epoch (detect_epoch), as
# the small kernels' path since session 44. build-carry/s46g (trimm, test_gpu_16bit) against
# s46f (call 6's). carry ["build-carry", ".deps/openblas"].
# Predicted: tests pass; bf16 Detect −2…−4 µs at 768–2048 (session 44: a memset left the GPU idle
# 3–5 µs before a small call's kernels), nothing visible at 4096+.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s46g.tar.xz -C /tmp/v && tar -xJf build-carry/s46f.tar.xz -C /tmp/v
V=/tmp/v/s46g
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -30 >> $L
TRIMM_TEST_MAX_N=1000 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.Sm90*:Inputs/GpuDetect16.EqualsTheDenseProductsTriangle/nonfinite_upper_n1000' > $OUT/san16.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san16.txt | tr '\n' ' ')" >> $L
for bin in s46f s46g s46f s46g; do
  echo "== $bin" >> $L
  timeout 40 /tmp/v/$bin/trimm bench --sizes 768,1024,2048,4096 --dtype bf16 --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v reference >> $L
done
cat $L
