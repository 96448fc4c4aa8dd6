# Session 58, call 4 (~4 min): sm80_fp64, the new fp64 kernel on the fp64 tensor cores (mma.sync
# m8n8k4), tested, sanitized and timed against cuBLAS DGEMM + triu and the plain simt_fp64.
# carry ["build-carry/s58g.tar.xz", ".deps/openblas"]
# Predicted (H100, DGEMM + triu 2.245 ms at 4096 in call 3): Triangular ~0.7 ms (~3×; load-bound
# near 32 B a cycle an SM at two blocks an SM), Detect ~2.1 ms (~1.05×: n³ flops at half the
# DGEMM's rate); every test passes, sanitizers clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s58g.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58g/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58g
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=300 timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64Batched.*default_*_n130' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
timeout 200 $B/trimm bench --dtype fp64 --structure both --sizes 256,512,1024,2048,4096,8192 >> $L 2>&1
echo "bench rc $?" >> $L
timeout 100 $B/trimm bench --dtype fp64 --structure both --sizes 4096 --kernel simt_fp64 >> $L 2>&1
echo "simt rc $?" >> $L
cat $L
