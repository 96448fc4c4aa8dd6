# Session 59, call 1 (~3 min, prepared in session 58, never run): bench/variants/s58_fp64_vec16.patch
# (sm80_fp64's stages away from a band's edge copy two doubles a time where A's and B's rows are
# 16-byte aligned: 4 + 4 copies a thread a stage instead of 8 + 8, no triangle test; Detect's test
# gains even-ld layouts so that the path runs under Detect too), tested, sanitized, timed against
# main's sm80_fp64 (session 58, call 7, H100: 4096 Triangular 1.82 ms, Detect 3.13).
# Also bench/variants/s58_fp64_m8n8k4_hook.patch on top (applies after the first): the kernel
# name "sm80_fp64_m8n8k4" runs sm_80's instruction on sm_90, and the fp64 suites run it, so that
# the sm_80 cubin's path is tested on this GPU (never run since call 4's earlier form).
# Build here first (~2 min on 2 cores), both trees' CLI and the patch's test_gpu:
#   git worktree add /tmp/v59 HEAD && git -C /tmp/v59 apply $PWD/bench/variants/s58_fp64_vec16.patch
#   git -C /tmp/v59 apply $PWD/bench/variants/s58_fp64_m8n8k4_hook.patch
#   cmake -S /tmp/v59 -B /tmp/b59 -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=ON \
#     -DTRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas -DTRIMM_GTEST_SOURCE_DIR=$PWD/.deps/googletest
#   cmake --build /tmp/b59 -j2 --target trimm_cli test_gpu   (and main's trimm_cli as `base`)
#   pack trimm, test_gpu and base's trimm as trimm_base into build-carry/s59v.tar.xz (dir s59v)
# carry ["build-carry/s59v.tar.xz", ".deps/openblas"]
# Predicted (H100): the loaders' share of issue (call 7's ncu: the most sampled code) roughly
# halves: 4096 Triangular ~1.5 ms, Detect ~2.7; tests pass (sm80_fp64_m8n8k4 too), sanitizers
# clean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s59v.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s59v/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s59v
BOX=250 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.TriangularIntegersExact/default_upper_n2049:Sizes/GpuFp64Batched.*default_*_n130' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_base; do
  echo "== $b" >> $L
  timeout 100 $B/$b bench --dtype fp64 --structure both --sizes 256,1024,2048,4096,8192 >> $L 2>&1
  echo "bench rc $?" >> $L
done
cat $L
