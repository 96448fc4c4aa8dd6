# Session 43, call 5 (~6 min): simt_small_fp32 split over four groups, block barriers only
# (build-carry/s43d.tar.xz: trimm_old = main's kernel; trimm = the split, Detect's exact path to
# 512 as on main; trimm_d1024 = the same with the exact path to 1024). Tests, the three
# sanitizers (call 3's racecheck counted hazards across the per-group named barriers), then
# Triangular and default Detect, 128-1024, two rounds.
# Predicted: sanitizers clean; Triangular as call 3 (512 ~13 us, 1024 ~28); Detect through the
# exact path at 640-1024 ~25-60 us, against sm90_tf32x3's Detect 54-56 us there.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43d.tar.xz -C /tmp/v
V=/tmp/v/s43d
L=$OUT/run.txt
S=128,256,384,512,640,768,896,1024
echo "== tests" >> $L
timeout 150 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*:Sizes/GpuTrtrmmBatched.*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; tail -3 $OUT/tests.txt >> $L
for tool in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu \
    --gtest_filter='*simt_small_fp32_upper_n129:*simt_small_fp32_lower_n1000:*simt_small_fp32_upper_n17:Inputs/GpuDetect.*' > $OUT/san.txt 2>&1
  echo "$tool rc $?: $(grep -E 'SUMMARY|tests ran' $OUT/san.txt | tr '\n' ' ')" >> $L
done
for round in 1 2; do
  for b in trimm_old trimm; do
    echo "== $b round $round triangular" >> $L
    timeout 60 $V/$b bench --sizes $S --kernel simt_small_fp32 --no-anchors 2>&1 | grep simt_small >> $L
  done
  for b in trimm_old trimm trimm_d1024; do
    echo "== $b round $round detect" >> $L
    timeout 60 $V/$b bench --sizes $S --structure detect --no-anchors 2>&1 | grep -E "^[0-9]" >> $L
  done
done
cat $L
