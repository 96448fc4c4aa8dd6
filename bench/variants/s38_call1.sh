# Session 38, call 1 (prepared in session 37): the landed pair queue's unrun tests and its times,
# and `early` on the queue's tree. build-carry/s38.tar.xz (carry ["build-carry",
# ".deps/openblas"]) holds: old/ (02e30d5's CLI: before the queue), head/ (b2c7007's CLI and
# test_gpu_16bit; later commits changed comments only) and early38/ (head plus
# s38_pair_early_decode.patch: CLI and test_gpu_16bit). If build-carry/ is gone, rebuild
# (scripts/prebuild-variants.sh, ~15 min here).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s38.tar.xz -C /tmp/v
timeout 150 /tmp/v/head/test_gpu_16bit --gtest_filter='PairQueue*' > $OUT/tests-queue.txt 2>&1
echo "PairQueue rc $?"; grep -E "PASSED|FAILED" $OUT/tests-queue.txt | head
for r in 1 2 3; do for v in old head early38; do
  printf "round %s %-8s " $r $v >> $OUT/bench.txt
  /tmp/v/$v/trimm bench --sizes 3584,4096,5120,5376,5632 --dtype bf16 --kernel sm90_16bit --no-anchors 2>&1 | awk '$2=="trimm"{printf "%s %s  ", $1, $6}' >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
timeout 200 /tmp/v/early38/test_gpu_16bit --gtest_filter='*sm90_16bit*:-PairQueue*' > $OUT/tests-early.txt 2>&1
echo "early38 rc $?"; grep -E "PASSED|FAILED" $OUT/tests-early.txt | head
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $OUT/san.txt
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/v/early38/test_gpu_16bit --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_*_n4097' >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done
grep -E "rc |ERROR SUMMARY" $OUT/san.txt
