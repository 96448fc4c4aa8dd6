# Session 44, call 1 (~6 min): simt_small_fp32's scan path for Structure::Detect (a scan of A
# and B, then the band or every k, gated), build-carry/s44a.tar.xz (this tree's trimm, test_gpu,
# test_dispatch). Tests and sanitizers of the Detect paths; the small-n sweep with anchors (both
# structures; dispatch: every k alone to 512, the scan past it) and the forced scan path at every
# n, two rounds; nsys of Detect at 896 (the gaps between memset, scan and the launches); the
# small kernel past 1024 (fp32 and ieee) against dispatch; then s43's ring probe (call 11).
# Predicted: Detect 640 ~0.021, 768 ~0.025, 896 ~0.029 ms (the band + ~5 us), 1024 ~0.034;
# the scan path loses to every k alone at <= 384.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s44a.tar.xz -C /tmp/v
V=/tmp/v/s44a
L=$OUT/run.txt
timeout 60 $V/test_dispatch > $OUT/tests.txt 2>&1
echo "test_dispatch rc $?: $(tail -1 $OUT/tests.txt)" >> $L
timeout 200 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*:GpuTrtrmmDispatch.*' >> $OUT/tests.txt 2>&1
echo "test_gpu rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "FAILED|Failure" $OUT/tests.txt | head -8 >> $L
F='Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_upper_n129:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/noisy_lower_n64:Inputs/GpuDetect.EqualsTheDenseProductsTriangle/triangular_nonfinite_upper_n129:GpuDetectPinned.BatchesAreScannedWhole'
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu --gtest_filter="$F" > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
S=128,256,384,448,512,576,640,768,896,1024
for round in 1 2; do
  echo "== dispatch round $round (both)" >> $L
  timeout 120 $V/trimm bench --sizes $S --structure both 2>&1 | grep -E "^[0-9]" | grep -v ieee >> $L
  echo "== forced scan path round $round" >> $L
  timeout 60 $V/trimm bench --sizes $S --kernel simt_small_fp32 --precision auto --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
done
echo "== past 1024: forced small kernel (auto, both), then dispatch" >> $L
timeout 60 $V/trimm bench --sizes 1088,1152,1216,1280,1408 --kernel simt_small_fp32 --precision auto --structure both --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
timeout 60 $V/trimm bench --sizes 1088,1152,1216,1280,1408 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v ieee >> $L
echo "== ieee: forced small kernel, then dispatch (simt_fp32)" >> $L
timeout 60 $V/trimm bench --sizes 1280,1536,1792,2048 --kernel simt_small_fp32 --precision ieee --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
timeout 60 $V/trimm bench --sizes 1280,1536,1792,2048 --precision ieee --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
command -v nsys > /dev/null || for d in /opt/nvidia/nsight-compute/*/host/target-linux-x64; do
  [ -x "$d/nsys" ] && export PATH="$d:$PATH" && break
done
echo "== nsys Detect 896" >> $L
timeout 90 nsys profile --trace=cuda --force-overwrite true -o /tmp/s44n $V/trimm bench --sizes 896 --structure detect --no-anchors --runs 5 > /dev/null 2>&1 &&
  timeout 60 python3 scripts/nsys_summary.py /tmp/s44n.nsys-rep 10 >> $L 2>&1
echo "== ring probe (s43 call 11; it appends here)" >> $L
bash bench/variants/s43_call11.sh > /dev/null 2>&1
cat $L
