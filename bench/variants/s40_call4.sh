# Session 40, call 4 (~2 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40d.tar.xz:
# alt, pb3, p3m as in call 3, and the no-store probes rebuilt so that the wgmmas stay (their
# accumulators feed a store under `n < 0`, never taken): nsk (loads, masks), p3sk (masks),
# p3msk (neither).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40d.tar.xz -C /tmp/v
L=$OUT/run.txt
# Predict at 4096: p3msk ~0.033 (tensor 26.7 + launch 3 + skeleton), p3sk ~0.037, nsk ~0.046.
for r in 1 2 3; do for v in alt nsk pb3 p3sk p3m p3msk; do
  printf "%s %-5s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
