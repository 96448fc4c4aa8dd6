# Prepared in session 48, not run: why sm90_16bit takes 52-54 us under Structure::Detect at
# n = 4096 against 46.5 us in its own call (session 48's call 3/6 ncu, in place). ncu's SOL and
# memory sections of the product kernel, once from a Triangular call and once from a Detect call
# (the launch after the scan), clocks and caches as they run. Binary: build-carry/s48g.tar.xz
# (session 48's final code; rebuild from main if it is gone). carry ["build-carry", ".deps/openblas"]
# Predicted: the same DRAM bytes; the Detect product's L2 hit rate lower (the scan's evict-first
# loads still displace lines) or its first stage later (the flag word's read behind the scan).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
B=${BIN:-s48g}
mkdir -p /tmp/v && tar -xJf build-carry/$B.tar.xz -C /tmp/v
T=/tmp/v/$B/trimm L=$OUT/run.txt
for st in triangular detect; do
  echo "== ncu sm90_16bit product, bf16 4096, --structure $st" >> $L
  timeout 200 ncu --clock-control none --cache-control none -k regex:sm90_bf16_trtrmm_kernel \
    --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats $T bench --sizes 4096 --dtype bf16 --structure $st --no-anchors \
    --runs 2 --warmup 1 > $OUT/ncu_$st.txt 2>&1
  grep -E "Duration|DRAM Throughput|L2 Hit|Memory Throughput|Grid Size|Cluster|Registers" \
    $OUT/ncu_$st.txt | head -20 >> $L
done
cat $L
