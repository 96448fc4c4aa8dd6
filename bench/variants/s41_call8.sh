# Session 41, call 8 (~1.5 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41g (sl2,
# snm2 as in call 7), s41h (slnm: sl2 with the multicast off). Call 4 had anm (alt's code, no
# multicast) = alt. slnm ≈ alt: the stream kernel's extra cost lies in its multicast (the two
# producers coupled per slot); slnm ≈ sl2: elsewhere in its code.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a g h; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
for r in 1 2; do for v in alt sl2 slnm snm2; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
