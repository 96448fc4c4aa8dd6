# Session 58, call 5 (~4 min): sm80_fp64 with sm_90's m16n8k16 (call 4 ran m8n8k4 everywhere:
# Triangular 2.60 ms, Detect 5.26 at 4096 on an H100, 13 TFLOP/s executed, ~20 % of the fp64
# tensor cores' peak), tested, sanitized and timed as call 4.
# carry ["build-carry/s58h.tar.xz", ".deps/openblas"]
# Predicted (H100): if m8n8k4 was the bound (a quarter rate on Hopper), Triangular 4096 ~0.8 ms,
# Detect ~2.0 ms; every test passes, sanitizers clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s58h.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58h/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58h
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
