# Session 38, call 3: which of the pair queue's mechanics costs the 2-3 us (call 2: the queue's
# mechanics with the layout's own assignment, `static`, lost as much as the queue). One CLI
# (build-carry/s38c.tar.xz: 03c94bd + s38_queue_mechanics.patch); TRIMM_S38_MODE:
#   layout   (unset) the packed layout, dispatch's choice at 3584-5376;
#   static   the queue's mechanics, the layout's assignment (call 2);
#   local    static, and rank 1 and the consumers read their levels from the table themselves
#            (no published words, no polling);
#   nozero   static without the zeroing kernel and the programmatic launch (no counters);
#   helpers  static, the helpers zeroing their own tiles' mirrors (as the layout) instead of
#            every gridDim.x-th tile;
#   all      all three.
#   nolocal  nozero and helpers together (local hung in its first try: every bench now runs
#            under `timeout`, and local only at 4096).
# Predict: all = layout (else the cost is in what none of them removes); the hand-off (local)
# the largest part.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s38c.tar.xz -C /tmp/v
for r in 1 2 3; do for m in layout static nozero helpers nolocal; do
  printf "round %s %-7s " $r $m >> $OUT/bench.txt
  TRIMM_S38_MODE=$m timeout 40 /tmp/v/qm/trimm bench --sizes 3584,4096,4608,5120 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
done; done
printf "local 4096 " >> $OUT/bench.txt
TRIMM_S38_MODE=local timeout 20 /tmp/v/qm/trimm bench --sizes 4096 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
echo "rc $?" >> $OUT/bench.txt; tail -3 /tmp/b.txt >> $OUT/bench.txt
cat $OUT/bench.txt
