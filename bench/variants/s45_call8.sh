# Session 45, call 8 (~6 min): sm90_16bit's helper warps read a share of A and B beside the product
# under 16-bit Detect (no memset, no scan launch; the gated launches as before). Tests: the 16-bit
# Detect suites (1000 and 2048 run sm90_16bit), sm90_16bit's exact-integer suite, the fp32 small
# kernel's Detect tests (the shared reader's new overload); memcheck, racecheck and synccheck on
# three GpuDetect16 cases at 1000/2048; then bf16/fp16 Detect against the same call on s45a's
# binary (scan launch first), with GemmEx + triu, two rounds.
# build-carry/s45g.tar.xz (the working tree), s45a.tar.xz (before).
# Predicted: all pass, clean; bf16 Detect 768 0.0186 -> ~0.013 ms, 4096 -> Triangular + ~8 us.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45g.tar.xz -C /tmp/v && tar -xJf build-carry/s45a.tar.xz -C /tmp/v
V=/tmp/v/s45g
L=$OUT/run.txt
timeout 150 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests.txt | head -16 >> $L
timeout 100 $V/test_gpu_16bit --gtest_filter='*IntegerInputsExact*sm90_16bit*' > $OUT/tests2.txt 2>&1
echo "test_gpu_16bit sm90_16bit exact rc $?: $(tail -1 $OUT/tests2.txt)" >> $L
timeout 60 $V/test_gpu --gtest_filter='GpuDetectPinned.*' >> $OUT/tests2.txt 2>&1
echo "test_gpu GpuDetectPinned rc $?: $(tail -1 $OUT/tests2.txt)" >> $L
F='Inputs/GpuDetect16.*noisy_upper_n1000:Inputs/GpuDetect16.*nonfinite_lower_n1000:Inputs/GpuDetect16.*triangular_upper_n2048'
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu_16bit --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  for bin in s45a s45g; do
    echo "== $bin round $round" >> $L
    timeout 60 /tmp/v/$bin/trimm bench --sizes 768,1024,2048,4096,8192 --dtype bf16 --structure both 2>&1 | grep -E "^[0-9]" >> $L
  done
done
timeout 40 $V/trimm bench --sizes 1024,4096 --dtype fp16 --structure both 2>&1 | grep -E "^[0-9]" >> $L
cat $L
