# Session 44, call 5 (~6 min): the final tree (Detect's every k alone to 448, the fused path to
# 1216; build-carry/s44d.tar.xz): the whole test_gpu and test_gpu_16bit's Detect suites, then the
# small-n sweep with anchors, both structures, one round (the README's table).
# Predicted: as call 4 (Detect 448 ~0.0118, 512 ~0.0148 now fused).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s44d.tar.xz -C /tmp/v
V=/tmp/v/s44d
L=$OUT/run.txt
timeout 60 $V/test_dispatch > $OUT/tests.txt 2>&1
echo "test_dispatch rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 330 $V/test_gpu >> $OUT/tests.txt 2>&1
echo "test_gpu (all) rc $?: $(grep -E '^\[  PASSED|^\[  FAILED|tests ran' $OUT/tests.txt | tail -3 | tr '\n' ' ')" >> $L
timeout 100 $V/test_gpu_16bit --gtest_filter='*Detect16*' >> $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" $OUT/tests.txt | head -8 >> $L
echo "== dispatch (both)" >> $L
timeout 120 $V/trimm bench --sizes 128,256,384,448,512,576,640,768,896,1024,1152,1216,1280 --structure both 2>&1 | grep -E "^[0-9]" | grep -v "ieee\|STRMM\|diag-batched" >> $L
cat $L
