# Session 58, call 2 (~3 min): bench/variants/s57_wide_direct.patch (the wide units for n % 8 != 0
# too: the last column block's two halves stored from registers, as the tall form's) tested and
# sanitized. Only views with a padded ld reach it (rows must be 16-byte aligned for TMA), so the
# bench, whose operands are n × n, cannot time it; the tests' PaddedLeadingDimensions does run it.
# carry ["build-carry/s57d.tar.xz", ".deps/openblas"]
# Built here, no spills; never run. Predicted: every test passes, sanitizers clean. Land it if so
# (git am bench/variants/s57_wide_direct.patch, then scripts/gen_kernelbench.py).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s57d.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57d/COMMIT >> $L
nvidia-smi --query-gpu=name --format=csv >> $L
F='Wide/*:WidePairs/*upper*:BandedSm90/*upper*:GpuTrtrmm16Dispatch.*:GpuDetect16Pinned.Sm90Pairs*'
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s57d/test_gpu_16bit 16 "$F" >> $L 2>&1
echo "tests rc $?" >> $L
T='Wide/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n6145'
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=8320 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    /tmp/v/s57d/test_gpu_16bit --gtest_filter="$T" > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" \
    $OUT/san_$tool.txt >> $L
done
cat $L
