# Session 37, call 5: the landing tree (static pair layout where it exists, the pair queue past
# its table): the 16-bit tests of sm90_16bit (PairQueue 5500/5632 included), sanitizers, times.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/call5.tar.xz -C /tmp/v
T=/tmp/v/land3/test_gpu_16bit
timeout 200 $T --gtest_filter='*sm90_16bit*' > $OUT/tests.txt 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $OUT/tests.txt | head
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $OUT/san.txt
  timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='PairQueue/GpuTrtrmm16.IntegerInputsExact/bf16_*:AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_*_n4097' >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done
grep -E "rc |ERROR SUMMARY|PASSED|FAILED" $OUT/san.txt | head -20
for r in 1 2; do for v in base land3; do
  printf "round %s %-6s " $r $v >> $OUT/bench.txt
  /tmp/v/$v/trimm bench --sizes 4096,5120,5500,5632 --dtype bf16 --kernel sm90_16bit --no-anchors 2>&1 | awk '$2=="trimm"{printf "%s %s  ", $1, $6}' >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
