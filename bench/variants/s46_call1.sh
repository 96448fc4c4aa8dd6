# Prepared in session 45, not run (device time spent): Detect's one launch after a structured launch
# that flags beside its product (bench/variants/s45_anyflag_one_launch.patch on 88f92e5: Path::AnyFlag,
# "Exact's computation, gated on any flag"; the 16-bit small kernel's Detect then runs simt_16bit
# alone after it instead of sm80_16bit's dense launch and simt_16bit's exact one; fp32's small
# kernel takes the same Path instead of its own gate helper). Apply it, run
# scripts/gen_kernelbench.py, build trimm_cli test_gpu test_gpu_16bit (build-carry/s46a.tar.xz holds
# them, built here from the patched tree, ptxas clean, test_dispatch passing), then:
#   bash bench/variants/s46_call1.sh   (carry ["build-carry", ".deps/openblas"])
# Tests: the 16-bit Detect suites (the gate test gains an AnyFlag launch), test_gpu's Detect suites
# (fp32's small kernel on AnyFlag), memcheck on the 16-bit pinned tests; then bf16/fp16 Detect at
# 256-640 with GemmEx + triu, against s45a's binary in the same call.
# Predicted: all pass; bf16 Detect 512 0.0128 -> ~0.010 ms (one gated-off launch fewer, ~3 us):
# ~1.0x GemmEx + triu at 512, ~0.9x at 256.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s46a.tar.xz -C /tmp/v && tar -xJf build-carry/s45a.tar.xz -C /tmp/v
V=/tmp/v/s46a
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests.txt | head -16 >> $L
timeout 150 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*' > $OUT/tests2.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests2.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests2.txt | head -16 >> $L
TRIMM_TEST_MAX_N=300 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*' > $OUT/san.txt 2>&1
echo "16-bit memcheck rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
for round in 1 2; do
  for bin in s45a s46a; do
    echo "== $bin round $round" >> $L
    timeout 60 /tmp/v/$bin/trimm bench --sizes 256,384,512,640 --dtype bf16 --structure both 2>&1 | grep -E "^[0-9]" >> $L
  done
done
cat $L
