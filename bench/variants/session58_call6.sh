# Session 58, call 6 (~5 min): sm80_fp64 with two tiles (64×64 to 2047, 128×128 from 2048),
# m16n8k8 on sm_90, rolled loader loops (160 / 252 registers; three 64×64 blocks an SM), tested,
# sanitized at both tiles, timed against DGEMM + triu; trimm_small runs 64×64 at every n.
# carry ["build-carry/s58i.tar.xz", ".deps/openblas"]
# Call 5 (H100, 64×64 only, m16n8k16, two blocks an SM): 4096 Triangular 1.93 ms, Detect 3.82.
# Predicted (H100): 128×128 halves the bytes a multiply-add: 4096 Triangular ~1.2 ms, Detect
# ~2.4 (1.9× and ~0.95× DGEMM + triu); 64×64 with three blocks an SM ~10 % faster than call 5.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s58i.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58i/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58i
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.Triangular*/default_upper_n2049:Sizes/GpuFp64Batched.*default_*_n130' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_small; do
  echo "== $b" >> $L
  timeout 150 $B/$b bench --dtype fp64 --structure both --sizes 256,1024,2048,4096,8192 >> $L 2>&1
  echo "bench rc $?" >> $L
done
cat $L
