# Session 40, call 5 (~1.5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40e.tar.xz:
# trk = alt + bench/variants/s40_probe_parts_trace.patch (all probes off: the kernel itself),
# trp3msk = the same with no loads, no masks, no stores (wgmmas kept). Consumer thread 0's clock
# around each stage's issue, printed for launches 3-7 (a sync a launch: times meaningless).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40e.tar.xz -C /tmp/v
L=$OUT/run.txt
for v in trk trp3msk; do
  TRIMM_STAGE_TRACE=1 timeout 60 /tmp/v/$v/trimm bench --sizes 4096 --dtype bf16 --kernel sm90_16bit --no-anchors 2> /tmp/st-$v.txt > /dev/null
  echo "$v rc $?" >> $L
  python3 scripts/stage_trace_summary.py /tmp/st-$v.txt >> $L 2>&1
  gzip -c /tmp/st-$v.txt > $OUT/st-$v.txt.gz
done
cat $L
