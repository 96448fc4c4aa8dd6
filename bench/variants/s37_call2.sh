export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
VAR_PREBUILT=build-carry/variants.tar.xz VARIANTS=bench/variants/session37_call2.txt VAR_RUNS="--dtype bf16 --kernel sm90_16bit" VAR_SIZES="3584 4096 4608 5120 5632" VAR_ROUNDS=3 VAR_TEST_VARIANTS="dyn" VAR_TEST_TARGETS=test_gpu_16bit VAR_TESTS='*sm90_16bit*' timeout 400 scripts/device-variants.sh > /dev/null 2>&1
T=/tmp/trimm-variants/build-dyn/tests/test_gpu_16bit
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $OUT/san.txt
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_*_n4097' >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done
grep -E "rc |ERROR SUMMARY|PASSED|FAILED" $OUT/san.txt
