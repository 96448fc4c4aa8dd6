# Session 43, call 10 (~4 min): simt_small_fp32 with two stages in flight a group (cp.async
# into three shared buffers a group, 96 KB of dynamic shared memory; build-carry/s43i.tar.xz:
# trimm_head = 908daf9's binary, trimm = the cp.async form, trimm_d1280 = it with Detect's exact
# path to 1280). Tests, sanitizers, Triangular and Detect 128-1024 against trimm_head, and
# Detect 896-1280 through the exact path.
# Predicted: Triangular 512 12.8 -> ~9 us, 1024 28.3 -> ~22; Detect 896 52.8 -> ~40.
# Source: bench/variants/s43_small_cp_async.patch on 908daf9.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43i.tar.xz -C /tmp/v
V=/tmp/v/s43i
L=$OUT/run.txt
timeout 150 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*:GpuTrtrmmDispatch.*' > $OUT/tests.txt 2>&1
echo "tests rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "FAILED|Failure" $OUT/tests.txt | head -5 >> $L
F='*simt_small_fp32_upper_n129:*simt_small_fp32_lower_n1000:*simt_small_fp32_upper_n17:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_lower_n64:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n129'
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  for b in trimm_head trimm; do
    echo "== $b round $round (both)" >> $L
    timeout 100 $V/$b bench --sizes 128,256,512,768,896,1024 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v "ieee" >> $L
  done
  echo "== trimm_d1280 round $round detect" >> $L
  timeout 60 $V/trimm_d1280 bench --sizes 896,1024,1152,1280 --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
cat $L
