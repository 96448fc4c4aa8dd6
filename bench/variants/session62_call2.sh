# Session 62, call 2 (~4 min): main with Detect gated from n = 768 (d0b2fa6) as landed. The gate
# was timed in call 1 through the knob build only.
# carry ["build-carry/s62b.tar.xz", "build-carry/s60.tar.xz", ".deps/openblas"]
# s60.tar.xz (session60_call1.sh's header): the knob build trimm_z, whose TRIMM_X_GATED_MIN_N=100000
# is the dense launch main took below 2048 before d0b2fa6, timed in the same call as the baseline.
# Build here: scripts/build_variant.sh /tmp/pk/s62b "" HEAD; XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s62b.tar.xz s62b
# Predicted (H100): the fp64 suite passes (1000, 1089 and the batch at 771 now gated); sanitizers
# clean; Detect 768 ~0.047, 1024 ~0.063, 1280 ~0.094, 1536 ~0.129, 1792 ~0.19 (Triangular 0.168
# plus the scan's ~0.02), 2048 0.237; Triangular as call 1; the two sweeps within 3 %.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && for t in s62b s60; do tar -xJf build-carry/$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
B=/tmp/v/s62b Z=/tmp/v/s60
cat $B/COMMIT $Z/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu (main)" >> $L
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
san='Sizes/GpuFp64.*default_upper_n1000:Sizes/GpuFp64.*default_lower_n1089:Sizes/GpuFp64Batched.DetectGatedOverTheBatch/default_upper_n1'
for tool in memcheck synccheck racecheck; do
  TRIMM_TEST_MAX_N=4096 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter="$san" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $? at $SECONDS s" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for r in 1 2; do
  echo "== trimm sweep $r" >> $L
  timeout 60 $B/trimm bench --dtype fp64 --structure both --sizes 512,768,1024,1280,1536,1792,2048 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
  echo "== trimm_z TRIMM_X_GATED_MIN_N=100000 (dense below 2048, the baseline) $r" >> $L
  TRIMM_X_GATED_MIN_N=100000 timeout 60 $Z/trimm_z bench --dtype fp64 --structure detect \
    --sizes 512,768,1024,1280,1536,1792 >> $L 2>&1
done
tail -c 9000 $L
