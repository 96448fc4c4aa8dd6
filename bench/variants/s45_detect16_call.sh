# Prepared in session 44, not run (device time spent): 16-bit Detect with the small kernel reading
# A and B beside its product (bench/variants/s44_detect16_fused.patch on b5a4274; apply, run
# scripts/gen_kernelbench.py, build trimm_cli test_gpu test_gpu_16bit test_dispatch into
# build-carry/s45a.tar.xz, dir s45a). Tests (16-bit Detect suites, fp32 Detect suites: the patch
# moves the shared reader and the gate's epoch), memcheck on the 16-bit pinned tests, then bf16
# and fp16 Detect at 256-832 with anchors, two rounds.
# Predicted: bf16 Detect 512 0.0160 -> ~0.012 ms (0.78x GemmEx + triu's 0.0095: still below);
# n >= 896 (sm90_16bit, still a scan launch first) unchanged.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45a.tar.xz -C /tmp/v
V=/tmp/v/s45a
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 120 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*' >> $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A3 $OUT/tests.txt | head -12 >> $L
TRIMM_TEST_MAX_N=300 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*' > $OUT/san.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
for round in 1 2; do
  for t in bf16 fp16; do
    echo "== $t round $round (both)" >> $L
    timeout 60 $V/trimm bench --sizes 256,384,512,640,768,832,896 --dtype $t --structure both 2>&1 | grep -E "^[0-9]" >> $L
  done
done
cat $L
