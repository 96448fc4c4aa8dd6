# Session 58, call 8 (~3 min): sm80_fp64's band-edge stages without branches (call 7's ncu on
# 2048 Triangular: the per-element `if` compiled to BSSY/BRA around each FMA and its loads, the
# most sampled code; DMMA 1.6 % of samples), tested, sanitized, timed; trimm_large runs 128×128
# for Triangular too from 2048.
# carry ["build-carry/s58k.tar.xz", ".deps/openblas"]
# Predicted (H100): Triangular 2048 0.438 → ~0.25 ms, 4096 1.82 → ~1.3 (64×64); 128×128 now
# ahead for Triangular at 4096–8192; Detect unchanged (3.13 at 4096); tests pass, sanitizers clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s58k.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58k/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58k
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.TriangularIntegersExact/default_upper_n2049:Sizes/GpuFp64Batched.*default_*_n130' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_large; do
  echo "== $b" >> $L
  timeout 100 $B/$b bench --dtype fp64 --structure both --sizes 256,1024,2048,4096,8192 >> $L 2>&1
  echo "bench rc $?" >> $L
done
cat $L
