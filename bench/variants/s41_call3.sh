# Session 41, call 3 (~1.5 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt: main's
# kernels), s41b (st: pair streams, quads), s41c (sr: st's kernel with every pair a Row pair,
# pair_order's quads off: the layout of the rows, packed by st's packer). Call 2 had st +21 % at
# 4096: sr tells the kernel's code (sr ≈ st) from the quads' layout (sr ≈ alt).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a b c; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
for r in 1 2; do for v in alt st sr; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
