# Session 41, call 7 (~1.5 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41f (st2),
# s41g (sl2: st2's kernel on session 40's layout written as streams; snm2: st2 with the
# multicast off). Call 6: st2 (the lean producer) 55.0 µs at 4096 against alt's 48.6, even at
# 8192. sl2 ≈ alt: the quads' layout is the loss (the ranks switch tiles two slots apart, so the
# pair pays both ranks' slow stages); sl2 ≈ st2: st2's code still is.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a f g; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
for r in 1 2; do for v in alt st2 sl2 snm2; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
