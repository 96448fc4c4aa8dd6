# Session 40, call 3 (~3 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40c.tar.xz
# holds alt/trimm (9861fc6's kernels) and timing probes on it (bench/variants/s40_probe_parts.patch,
# results wrong by design): pb3 no loads; p3m no loads, no structural-zero masks; p3s no loads,
# no stores; p3ms none of the three; nm no masks; ns no stores.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40c.tar.xz -C /tmp/v
L=$OUT/run.txt
# Predict at 4096: p3ms ~0.037 (session 33's bare, unpaired), p3m ~0.042, p3s ~0.040,
# nm 0.0475, ns ~0.045.
for r in 1 2 3; do for v in alt pb3 p3m p3s p3ms nm ns; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
