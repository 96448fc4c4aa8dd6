# Session 41, call 5 (~1 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41b (st),
# s41e (sl: st's kernel fed session 40's layout, its pairs, bins and rank choice written as
# streams: the shorter tile's rank idles after it). Call 4: alt's multicast gains nothing (anm =
# alt), st's costs 6 µs (snm 53.5 against st 59.2), and snm is still +5 µs against anm. sl tells
# the kernel's code (sl ≈ st) from st's packing (sl ≈ alt).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a b e; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
for r in 1 2; do for v in alt st sl; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
