# Prepared in session 50 (no device lent); optional (~6-9 min). carry ["build-carry",
# ".deps/openblas"]. compute-sanitizer on the sm90_16bit paths no sanitizer run has reached
# (session 50's test audit): a unit's band split over a cluster of ranks (n = 511), persistent
# blocks (2560), the multicast pairs (3072) and the pairs' output flags under Detect. The default
# sanitizer step caps n at 300 and its racecheck filter names none of these.
# Binaries: build-carry/s50t.tar.xz (f3ed908). Predicted: 0 errors, 0 hazards everywhere; a
# racecheck hazard on the pairs' distributed shared memory or mbarrier hand-offs would be the
# finding. Each tool is time-boxed; a timeout (rc 124) says the run was too slow, not unclean.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_TEST_MAX_N=3072
mkdir -p /tmp/v && tar -xJf build-carry/s50t.tar.xz -C /tmp/v
T=/tmp/v/s50t L=$OUT/run.txt
cat $T/COMMIT >> $L
F='*IntegerInputsExact/bf16_sm90_16bit_*_n511:*IntegerInputsExact/bf16_sm90_16bit_*_n2560'
F+=':*IntegerInputsExact/bf16_sm90_16bit_*_n3072:*Sm90PairsFlagTheirOutputs*'
$T/test_gpu_16bit --gtest_list_tests --gtest_filter="$F" | grep -c "^  " >> $L
for tool in memcheck racecheck synccheck; do
  echo "== $tool" >> $L
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 1 $T/test_gpu_16bit \
    --gtest_filter="$F" > $OUT/$tool.txt 2>&1
  echo "rc $?" >> $L
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED" $OUT/$tool.txt | tail -4 >> $L
done
cat $L
