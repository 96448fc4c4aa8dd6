# Session 40, call 7 (~2 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40g.tar.xz:
# trk2 = alt + bench/variants/s40_probe_parts_trace.patch (stage and prologue stamps; all probes
# off), sto1 = trk2 whose epilogue stages C in shared memory but issues no TMA store, sto2 = trk2
# whose epilogue issues the TMA stores without staging (stale buffers), nsk = call 4's (no store).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40g.tar.xz -C /tmp/v
L=$OUT/run.txt
TRIMM_STAGE_TRACE=1 timeout 60 /tmp/v/trk2/trimm bench --sizes 4096 --dtype bf16 --kernel sm90_16bit --no-anchors 2> /tmp/st.txt > /dev/null
echo "trace rc $?" >> $L
python3 scripts/stage_trace_summary.py /tmp/st.txt >> $L 2>&1
gzip -c /tmp/st.txt > $OUT/st-trk2.txt.gz
# Predict: nsk (no store) ~0.0456 as in call 4; sto1 and sto2 each between nsk and trk2.
for r in 1 2 3; do for v in trk2 sto1 sto2 nsk; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
