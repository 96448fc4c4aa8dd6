# Session 38, call 4: is the pair queue's loss its hand-off? And do the layout's helpers lose by
# zeroing their own tiles' mirrors? Binaries in build-carry/s38d.tar.xz:
#   qm/trimm: 03c94bd + s38_queue_mechanics.patch. TRIMM_S38_MODE: layout (unset); static (the
#     queue's mechanics, the layout's assignment; call 2); local (static, every level's word
#     prefilled in shared memory by the prologue, as the layout's decode does, rank 0
#     publishing none; call 3's first form, which read the table through a pointer to the
#     kernel's __grid_constant__ parameter, hung); rr (the layout, its helpers zeroing every
#     gridDim.x-th tile's mirror, as the queue's do, instead of their own tiles').
#   rr/: trimm and test_gpu_16bit of the landing form of rr (03c94bd + the working tree's
#     sm90_bf16_trtrmm.cu: every unsplit path, paired or not, zeroes round robin).
# Predict: local = layout if the hand-off is the cost, = static if it is the queue kernel's own
# code; rr −1…−2 µs against layout at 3584-5120 (call 3: own tiles cost ~2 µs in the queue's
# static form); the landing form the same, and 0…−1 at 2048-3072 (unpaired layouts).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s38d.tar.xz -C /tmp/v
row() {  # label, env mode, binary, sizes
  printf "%-16s " "$1" >> $OUT/bench.txt
  TRIMM_S38_MODE=$2 timeout 40 $3 bench --sizes $4 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  echo "$1 rc $?" >> $OUT/rc.txt
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
}
for r in 1 2 3; do for m in layout rr static local; do
  row "$r $m" $m /tmp/v/qm/trimm 3584,4096,5120
done; done
for r in 1 2; do
  row "$r head" layout /tmp/v/qm/trimm 2048,3072,4096
  row "$r rr-land" layout /tmp/v/rr/trimm 2048,3072,4096
done
cat $OUT/bench.txt
timeout 150 /tmp/v/rr/test_gpu_16bit --gtest_filter='*sm90_16bit*' > $OUT/tests.txt 2>&1
echo "tests rc $?"; grep -E "PASSED|FAILED" $OUT/tests.txt | head
for tool in memcheck racecheck; do echo "## $tool" >> $OUT/san.txt
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/v/rr/test_gpu_16bit --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_upper_n4097' >> $OUT/san.txt 2>&1; echo "rc $?" >> $OUT/san.txt; done
grep -E "rc |SUMMARY" $OUT/san.txt
