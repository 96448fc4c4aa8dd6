# Session 43, call 3 (~5 min): simt_small_fp32 with the band's stages split over four groups of
# 64 threads (build-carry/s43c.tar.xz: trimm_old = main's kernel, trimm = the split) against the
# old kernel, Triangular and Detect (forced), n = 128-1024; its GPU tests and the sanitizers.
# Predicted: Detect 512 22.9 -> 9-12 us, Triangular 512 17.2 -> 8-11 us; 1024 37.6 -> 20-30.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43c.tar.xz -C /tmp/v
V=/tmp/v/s43c
L=$OUT/run.txt
S=128,256,384,512,640,768,1024
echo "== tests" >> $L
timeout 200 $V/test_gpu --gtest_filter='*simt_small*:Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*' 2>&1 | tail -5 >> $L
for tool in memcheck racecheck synccheck; do
  echo "== $tool" >> $L
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu \
    --gtest_filter='*simt_small_fp32_upper_n129:*simt_small_fp32_lower_n1000:Inputs/GpuDetect.*simt_small*' 2>&1 | tail -3 >> $L
  echo "$tool rc $?" >> $L
done
for round in 1 2; do
  for b in trimm_old trimm; do
    echo "== $b round $round triangular" >> $L
    timeout 60 $V/$b bench --sizes $S --kernel simt_small_fp32 --no-anchors 2>&1 | tail -n +4 >> $L
    echo "== $b round $round detect" >> $L
    timeout 60 $V/$b bench --sizes $S --kernel simt_small_fp32 --structure detect --no-anchors 2>&1 | tail -n +4 >> $L
  done
done
echo "== anchors and default detect (new binary)" >> $L
timeout 100 $V/trimm bench --sizes $S --structure detect 2>&1 >> $L
cat $L
