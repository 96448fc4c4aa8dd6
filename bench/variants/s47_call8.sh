# Session 47, call 8: after the final read's mend (1f2ce50: run16 and selected16 share one helper
# for the dense Detect launch; host code only): test_gpu_16bit built by CI's fresh clone of
# 1f2ce50 (s48g). Predicted: Detect16 86 passed, the selected-kernel and error tests pass.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48g.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 300 /tmp/v/s48g/test_gpu_16bit --gtest_filter='*Detect16*:GpuTrtrmm16Selected.*:GpuTrtrmm16Errors.*' > $OUT/tests16.txt 2>&1
echo "s48g test_gpu_16bit rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
cat $L
