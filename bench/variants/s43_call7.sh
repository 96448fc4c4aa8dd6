# Session 43, call 7 (~4 min): main 1acd4ff (simt_small_fp32 split over four groups; Detect's
# exact path to 896), build-carry/s43f.tar.xz (trimm_old = 0a999aa's binary). GPU tests of the
# small kernel, Detect and dispatch; the sanitizers; the small-n sweep with anchors (both
# structures, two rounds); the Triangular crossover past 1024 (forced small kernel against
# dispatch's sm90_tf32x3). Predicted: Detect >= 1x the reference to 768, ~0.9x at 896;
# the small kernel still ahead at 1152, behind by 1536.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43f.tar.xz -C /tmp/v
V=/tmp/v/s43f
L=$OUT/run.txt
timeout 150 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*:GpuTrtrmmDispatch.*' > $OUT/tests.txt 2>&1
echo "tests rc $?: $(tail -1 $OUT/tests.txt)" >> $L
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu \
    --gtest_filter='*simt_small_fp32_upper_n129:*simt_small_fp32_lower_n1000:*simt_small_fp32_upper_n17:*simt_small_fp32_lower_n64' > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY' $OUT/san.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  echo "== sweep round $round" >> $L
  timeout 120 $V/trimm bench --sizes 128,256,384,512,640,768,896,1024 --structure both 2>&1 | grep -E "^[0-9]" >> $L
done
echo "== crossover" >> $L
timeout 60 $V/trimm bench --sizes 1024,1152,1280,1536 --kernel simt_small_fp32 --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
timeout 60 $V/trimm bench --sizes 1024,1152,1280,1536 --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
cat $L
