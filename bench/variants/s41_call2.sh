# Session 41, call 2 (~5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s41a.tar.xz
# (alt/trimm: main's kernels, 9861fc6) and s41b.tar.xz (st/trimm, st/test_gpu_16bit: the pair
# streams, quads of a Row and a Column pair with no rank idle; this session's working tree).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s41a.tar.xz -C /tmp/v && tar -xJf build-carry/s41b.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/st/test_gpu_16bit
# Correctness first, each under a short limit (a stream mismatch between ranks hangs).
timeout 60 compute-sanitizer --tool synccheck --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n4097' > $OUT/synccheck.txt 2>&1
echo "synccheck rc $?" >> $L; grep -m3 -E "ERROR SUMMARY|PASSED|FAILED" $OUT/synccheck.txt >> $L
timeout 120 $T --gtest_filter='AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4097' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
timeout 150 $T --gtest_filter='WidePairs/*IntegerInputsExact*' > $OUT/wide.txt 2>&1
echo "wide rc $?" >> $L; grep -c "OK \]" $OUT/wide.txt >> $L; grep -m5 "FAILED" $OUT/wide.txt >> $L
for f in bf16_sm90_16bit_upper_n4097 fp16_sm90_16bit_lower_n3072; do for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/$f" > /tmp/san.txt 2>&1
  echo "$tool $f rc $?" >> $L; tail -1 /tmp/san.txt >> $L
done; done
# Predict (cost model: cluster makespan 124 -> 120 stage-costs at 4096, 62 -> 60 at 3072, 87 -> 85
# at 3584, 224 -> 218 at 5120, 369 -> 361 at 6144, 820 -> 805 at 8192): st −1…−1.5 µs at 4096,
# −2…−3 at 6144, −4…−6 at 8192, ±0.5 at 3072/3584.
for r in 1 2 3; do for v in alt st; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,3584,4096,5120,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
