# Session 46, device call 3: the bulk scan with 5 slots of 2 KB a helper warp (30 KB an SM; the
# slots share each warp's correction staging, which the warp uses only after its scan) against
# call 2's 3 slots (s46b) and the scan launch (s46a). build-carry/s46c: trimm and test_gpu of
# the working tree. carry ["build-carry", ".deps/openblas"].
# Predicted: if call 2's scan was on the product's critical path (latency-bound at 18 KB in
# flight an SM), Detect 4096 0.200 -> ~0.185-0.190 and 3072 back under the scan launch's 0.114;
# if it costs intake (the bulk copies beside the ring's TMA), no change. ncu then shows which:
# the product's duration under Detect against Triangular.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s46a s46b s46c; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
V=/tmp/v/s46c
L=$OUT/run.txt
timeout 200 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:GpuTrtrmmDispatch.*:*LostElements*:*/GpuTrtrmm.*/sm90_fp16x*' > $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A6 $OUT/tests.txt | head -40 >> $L
F='Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_upper_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/dense_lower_n1000:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n1000:GpuLostElementsDetect.*'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=1000 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED|FAILED' $OUT/san_$tool.txt | tr '\n' ' ')" >> $L
done
for bin in s46a s46b s46c s46c; do
  echo "== $bin" >> $L
  timeout 90 /tmp/v/$bin/trimm bench --sizes 3072,4096,8192 --kernel sm90_fp16x3 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v reference >> $L
done
echo "== ncu s46c 4096" >> $L
timeout 100 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  $V/trimm bench --sizes 4096 --kernel sm90_fp16x3 --structure both --no-anchors --runs 2 --warmup 1 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | paste - - | grep -v "cli::\|naive\|xmma" | awk '{print $1, $2, $3, $NF}' | head -40 >> $L
cat $L
