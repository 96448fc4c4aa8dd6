# Session 41, call 6 (~2 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41b (st),
# s41f (st2: st with the producer walking both streams a run of slots at a time, the share
# decided once a run, not a slot; plus its test_gpu_16bit). Call 5: st's kernel loses 9 µs even
# on session 40's layout, and its multicast costs 6 µs where alt's costs nothing: the per-slot
# producer work is the suspect (the producer then falls behind the ring).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a b f; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
# Predict: st2 ≈ alt − 1 µs at 4096 if the producer was all of it; st2 ≈ st if not.
for r in 1 2; do for v in alt st st2; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
T=/tmp/v/st2/test_gpu_16bit
timeout 100 $T --gtest_filter='AllKernels/*IntegerInputsExact*sm90_16bit*n3072:AllKernels/*IntegerInputsExact*sm90_16bit*n4097:AllKernels/*PaddedLeading*sm90_16bit*n4097:WidePairs/*IntegerInputsExact*bf16*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
cat $L
