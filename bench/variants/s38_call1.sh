# Session 38, call 1 (prepared in session 37): the landed pair queue's unrun tests and its times.
# build-carry/call5.tar.xz holds land3 (b2c7007's sources: test_gpu_16bit and trimm; later
# commits changed comments only) and base (02e30d5's trimm, before the queue); carry
# ["build-carry", ".deps/openblas"]. If build-carry/ is gone, rebuild from HEAD (~8 min here).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/call5.tar.xz -C /tmp/v
T=/tmp/v/land3/test_gpu_16bit
timeout 150 $T --gtest_filter='PairQueue*' > $OUT/tests-queue.txt 2>&1; echo "PairQueue rc $?"
grep -E "PASSED|FAILED" $OUT/tests-queue.txt | head
for r in 1 2; do for v in base land3; do
  printf "round %s %-6s " $r $v >> $OUT/bench.txt
  /tmp/v/$v/trimm bench --sizes 4096,5120,5376,5500,5632 --dtype bf16 --kernel sm90_16bit --no-anchors 2>&1 | awk '$2=="trimm"{printf "%s %s  ", $1, $6}' >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
