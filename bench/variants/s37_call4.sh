# Session 37, call 4: the pair queue with its words published (no table read by the consumers),
# the ticket taken 12 stages before a level's end, the table read 6 before; base = 02e30d5.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/call4.tar.xz -C /tmp/v
for r in 1 2 3; do for v in base land2; do
  printf "round %s %-6s " $r $v >> $OUT/bench.txt
  /tmp/v/$v/trimm bench --sizes 3584,4096,4608,5120,5632 --dtype bf16 --kernel sm90_16bit --no-anchors 2>&1 | awk '$2=="trimm"{printf "%s %s  ", $1, $6}' >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
timeout 200 /tmp/v/land2/test_gpu_16bit --gtest_filter='*sm90_16bit*' > $OUT/tests.txt 2>&1; echo "tests rc $?"; grep -E "PASSED|FAILED" $OUT/tests.txt | head
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $OUT/san.txt
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/v/land2/test_gpu_16bit --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_*_n4097:AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_*_n3584' >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done
grep -E "rc |ERROR SUMMARY|Race|PASSED|FAILED" $OUT/san.txt | head -20
