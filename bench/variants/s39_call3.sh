# Session 39, call 3 (~7 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39c.tar.xz
# holds fin/trimm and fin/test_gpu_16bit (the wide pair layout as committed: pairs from 3584 to
# kSm90Bf16PairMaxN = 8192, bands past it) and qm/trimm (call 1's, for the bands and the old
# layout in the same runs).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39c.tar.xz -C /tmp/v
T=/tmp/v/fin/test_gpu_16bit
# 1. What call 2 did not run on this kernel: the bands past 8192 (8193: the partial last tile
# column; 8320: aligned), the pairs' float and Inf bodies at 8192, and 5500's non-integer bodies.
# (Call 2 ran every body at 5889 and 6144 on the same pair kernel, named Banded/ there.)
timeout 200 $T --gtest_filter='BandedSm90*' > $OUT/tests.txt 2>&1; echo "banded rc $?" >> $OUT/rc.txt
timeout 150 $T --gtest_filter='WidePairs/*n8192:WidePairs/*n5500:-*IntegerInputsExact*' >> $OUT/tests.txt 2>&1; echo "pairs rc $?" >> $OUT/rc.txt
grep -E "PASSED|FAILED" $OUT/tests.txt; cat $OUT/rc.txt
# The unpaired persistent kernel lost its queue arguments: memcheck on it at 3072.
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n3072' > $OUT/san.txt 2>&1; echo "memcheck rc $?" >> $OUT/san.txt
grep -E "SUMMARY|rc " $OUT/san.txt
# 2. Three rounds against qm. Predict: fin = call 2's new at 4096-8192 (pairs), = qm at 8320 and
# 9216 (bands both).
for r in 1 2 3; do for v in qm fin; do
  printf "%s %-4s " $r $v >> $OUT/bench.txt
  timeout 60 /tmp/v/$v/trimm bench --sizes 4096,7168,8192,8320,9216 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  echo "$r $v rc $?" >> $OUT/rc.txt
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
# 3. fin unforced with its anchors (GemmEx in the type + triu), bf16 and fp16.
for d in bf16 fp16; do
  timeout 90 /tmp/v/fin/trimm bench --sizes 4096,6144,8192 --dtype $d >> $OUT/anchored.txt 2>&1; echo "anchored $d rc $?" >> $OUT/rc.txt
done
cat $OUT/anchored.txt | tail -30
