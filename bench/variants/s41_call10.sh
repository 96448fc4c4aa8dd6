# Session 41, call 10 (~4 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41j (sp: the
# landable form of call 9's pb, both fills: a pair's A loads and the expect_tx from the producer,
# B's from helper warp 9's lane 0; its test_gpu_16bit). The pair kernel's tests in both fills
# (4097 has a self-paired tile), the sanitizers, then three rounds against alt.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a j; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
T=/tmp/v/sp/test_gpu_16bit
for f in bf16_sm90_16bit_upper_n4097 fp16_sm90_16bit_lower_n4097; do
  timeout 50 compute-sanitizer --tool synccheck --error-exitcode 9 $T --gtest_filter="AllKernels/GpuTrtrmm16.IntegerInputsExact/$f" > /tmp/san.txt 2>&1
  echo "synccheck $f rc $?" >> $L; grep -m1 "ERROR SUMMARY" /tmp/san.txt >> $L
  for tool in racecheck memcheck; do
    timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/$f" > /tmp/san.txt 2>&1
    echo "$tool $f rc $?" >> $L; tail -1 /tmp/san.txt >> $L
  done
done
timeout 100 $T --gtest_filter='AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4097:WidePairs/*IntegerInputsExact*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
# Predict: sp −0.4…−0.6 µs at 4096 (pb in call 9), ±0.5 % elsewhere.
for r in 1 2 3; do for v in alt sp; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,5120,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
