# Session 39, call 7 (~2 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39g.tar.xz
# holds p2/trimm and p2/test_gpu_16bit (f976d45's kernels with the pair prologue issuing 2
# stages instead of 6 before the warps split; the producer issues the rest) and fin2/trimm.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39g.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 60 /tmp/v/p2/test_gpu_16bit --gtest_filter='AllKernels/*IntegerInputsExact*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4097' > /tmp/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED" /tmp/tests.txt >> $L; grep -c "OK \]" /tmp/tests.txt >> $L
# Call 6: the first stage's arrival moves the whole kernel. Predict: p2 −0.3…+0.5 µs (fewer
# requests ahead of stage 0 in every SM's queue, but the producer's later issue).
for r in 1 2 3; do for v in fin2 p2; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,5120,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
