# Session 39, call 2 (~6 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39b.tar.xz
# holds new/trimm and new/test_gpu_16bit (the wide pair layout: sched::PairLayout's 4096 packed
# tiles, the queue removed, kSm90Bf16PairMaxN provisionally 16384 so that pairs run wherever the
# layout exists) and qm/trimm (call 1's: the 1024-entry layout to 5376, the queue to 5632, bands
# past it).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39b.tar.xz -C /tmp/v
T=/tmp/v/new/test_gpu_16bit
# 1. The pairs where they never ran (5632-8192, 5889 with a partial last tile column) and where
# they did (3584, 4097), every sm90_16bit body.
timeout 240 $T --gtest_filter='WidePairs/*:Banded/*sm90_16bit*:AllKernels/*sm90_16bit*n3584:AllKernels/*sm90_16bit*n4097:AllKernels/*sm90_16bit*n1025' > $OUT/tests.txt 2>&1
echo "tests rc $?"; grep -E "PASSED|FAILED|tests ran" $OUT/tests.txt | head
for t in 'WidePairs/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n5889' 'WidePairs/GpuTrtrmm16.InfInputsLeaveTheZeroTriangleZero/fp16_sm90_16bit_lower_n6144'; do
  for tool in memcheck racecheck synccheck; do echo "## $tool $t" >> $OUT/san.txt
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="$t" >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done; done
grep -E "^## |rc |SUMMARY" $OUT/san.txt
# 2. Where pairs stop paying against the bands. Predict: new = qm within ±0.3 µs at 3584-5120
# (the same layout, a cheaper decode, 8 KB of parameters); 5632 ~0.1106 and 6144 ~0.1383 (call 1's
# big layout); pairs ahead by 5-8 % at 6656-7168, even at 7680-8192, behind past 8192.
for r in 1 2 3; do for v in qm new; do
  printf "%s %-4s " $r $v >> $OUT/bench.txt
  timeout 60 /tmp/v/$v/trimm bench --sizes 3584,4096,5120,5632,6144,6656,7168,7680,8192,9216,10240 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  echo "$r $v rc $?" >> $OUT/rc.txt
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
cat $OUT/bench.txt
