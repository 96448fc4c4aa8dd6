# Session 44, call 7 (~2 min): after review: under stream capture the small kernel's Detect clears
# its flag word by a memset (epoch 0), as a graph replays one epoch; the alignment test over four
# rows; a test that reuses one workspace (noisy, triangular, noisy; then a captured graph replayed
# noisy and triangular). build-carry/s44f.tar.xz (test_gpu, test_gpu_16bit).
mkdir -p /tmp/v && tar -xJf build-carry/s44f.tar.xz -C /tmp/v
V=/tmp/v/s44f
L=$OUT/run.txt
timeout 120 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuTrtrmmErrors.*' > $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 60 $V/test_gpu_16bit --gtest_filter='*Detect16*' >> $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A3 $OUT/tests.txt | head -12 >> $L
TRIMM_TEST_MAX_N=600 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $V/test_gpu --gtest_filter='GpuDetectPinned.TheSmallKernels*' > $OUT/san.txt 2>&1
echo "memcheck rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
cat $L
