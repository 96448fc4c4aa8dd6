# Session 41, call 4 (~1 min). Carry ["build-carry", ".deps/openblas"]: s41a (alt), s41b (st),
# s41d (snm: st with the multicast off; anm: alt with the multicast off). Calls 2-3: st and sr
# (st's kernel, Row pairs only) +20 % against alt. If st never multicasts (its per-slot test
# never true on the device), snm ≈ st ≈ anm.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for t in a b d; do tar -xJf build-carry/s41$t.tar.xz -C /tmp/v; done
L=$OUT/run.txt
for r in 1 2; do for v in alt anm st snm; do
  printf "%s %-4s " $r $v >> $L
  timeout 40 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
