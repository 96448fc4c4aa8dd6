# Session 43, call 4: racecheck's hazards on the split simt_small_fp32 (call 3 counted 95), in full.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s43c.tar.xz -C /tmp/v
V=/tmp/v/s43c
L=$OUT/run.txt
timeout 200 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 12 $V/test_gpu \
    --gtest_filter='*IntegerInputsExact/simt_small_fp32_upper_n129' > $OUT/rc1.txt 2>&1
echo "rc $?" >> $L
timeout 200 compute-sanitizer --tool racecheck --print-limit 12 $V/test_gpu \
    --gtest_filter='*IntegerInputsExact/simt_small_fp32_upper_n17' > $OUT/rc2.txt 2>&1
echo "rc $?" >> $L
head -c 6000 $OUT/rc1.txt >> $L; echo ---- >> $L; tail -c 1500 $OUT/rc2.txt >> $L
cat $L
