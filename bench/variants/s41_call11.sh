# Session 41, call 11 (~3 min). Carry ["build-carry", ".deps/openblas"]: s41j (sp, landed as
# 1ea6931). The pair tests call 10 left out: WidePairs' UniformInputsWithinBound and the rest of
# its bodies at 5500-8192, both fills.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s41j.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/sp/test_gpu_16bit
timeout 200 $T --gtest_filter='WidePairs/*-WidePairs/*IntegerInputsExact*' > $OUT/tests.txt 2>&1
echo "wide rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
grep -E "^\[  (PASSED|FAILED)" $OUT/tests.txt >> $L
cat $L
