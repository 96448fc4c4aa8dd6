# Session 45, call 9 (~4 min): after the review: capture's epoch reserved (next_epoch 2 ...), GpuDetect
# also under dispatch's own precision tf32 choice, comments. test_gpu's Detect suites, the 16-bit
# pinned and gate suites. build-carry/s45h.tar.xz. Predicted: all pass.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45h.tar.xz -C /tmp/v
V=/tmp/v/s45h
L=$OUT/run.txt
timeout 150 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*' > $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests.txt | head -16 >> $L
timeout 50 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*:GpuDetect16Gate.*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit pinned+gate rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
cat $L
