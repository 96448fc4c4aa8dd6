# Session 39, call 4 (~5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39d.tar.xz
# holds fin/trimm (50c6a8e's code: pairs 3584-8192), pm/trimm and pm/test_gpu_16bit (fin with
# pairs from n = 2048: is kSm90Bf16PairMinN still right now that the list decodes in two shifts?)
# and wide/trimm (call 2's `new`: pairs wherever the layout exists, to 11264).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39d.tar.xz -C /tmp/v
# 1. pm's pairs at 2048-3328, where fin runs the unpaired persistent layout.
timeout 150 /tmp/v/pm/test_gpu_16bit --gtest_filter='AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n2048' > $OUT/tests.txt 2>&1
echo "pm tests rc $?" >> $OUT/rc.txt; grep -E "PASSED|FAILED" $OUT/tests.txt
# 2. Session 35 measured pairs +1.2 µs at 3072, +2 at 2048. Predict: the cheaper decode takes
# ~1 µs off the pairs only, so 3072 about even, 3328 a small gain, 2048-2560 still a loss.
for r in 1 2 3; do for v in fin pm; do
  printf "%s %-4s " $r $v >> $OUT/bench.txt
  timeout 60 /tmp/v/$v/trimm bench --sizes 2048,2560,3072,3328,3584 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  echo "$r $v rc $?" >> $OUT/rc.txt
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
# 3. Between 8192 (pairs 2 % ahead) and 9216 (3 % behind). Predict: the crossing near 8700.
for r in 1 2 3; do for v in fin wide; do
  printf "%s %-4s " $r $v >> $OUT/bench.txt
  timeout 60 /tmp/v/$v/trimm bench --sizes 8192,8448,8704,8960 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  echo "$r $v rc $?" >> $OUT/rc.txt
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
