# Session 45, call 7 (~5 min): Structure::Detect with precision tf32 past 1216 (sm90_tf32 given the
# flags path: its Detect and dense modes) and dispatch's flags fallback by precision. test_gpu's
# Detect, lost-element, error and dispatch suites (GpuDetect now runs sm90_tf32: noise within
# TF32's bound, NaN/Inf exactly), then memcheck and racecheck on three GpuDetect cases at 129.
# build-carry/s45f.tar.xz (the working tree's test_gpu and trimm).
# Predicted: all pass, sanitizers clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45f.tar.xz -C /tmp/v
V=/tmp/v/s45f
L=$OUT/run.txt
timeout 330 $V/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:*LostElements*:GpuTrtrmmErrors.*:GpuTrtrmmDispatch.*' > $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A4 $OUT/tests.txt | head -24 >> $L
F='Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_upper_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/nonfinite_lower_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/dense_upper_n129'
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
cat $L
