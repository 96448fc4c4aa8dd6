# Session 38, call 2: why the pair queue loses where the packed layout exists. One CLI
# (build-carry/s38b.tar.xz: 03c94bd + s38_queue_static.patch), three modes by TRIMM_S38_MODE:
#   (unset) the packed layout (what dispatch runs at 3584-5376);
#   queue   the pair queue forced where the layout exists (session 37: +2-3 us);
#   static  the queue's mechanics (level words published by rank 0, polled by rank 1 and the
#           consumers, the zeroing kernel, PDL) with the layout's own assignment, no atomic.
# static = layout: the mechanics cost nothing, the dynamic assignment loses.
# static = queue: the mechanics lose (hand-off, polling), and the assignment is innocent.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s38b.tar.xz -C /tmp/v
for r in 1 2 3; do for m in layout queue static; do
  printf "round %s %-7s " $r $m >> $OUT/bench.txt
  TRIMM_S38_MODE=$m /tmp/v/qs/trimm bench --sizes 3584,4096,4608,5120 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  awk '$2=="trimm"{printf "%s %s  ", $1, $6}' /tmp/b.txt >> $OUT/bench.txt; echo >> $OUT/bench.txt
  [ $r = 1 ] && { echo "### $m" >> $OUT/full.txt; cat /tmp/b.txt >> $OUT/full.txt; }
done; done
cat $OUT/bench.txt
