# Session 48, call 3: where 16-bit Detect's time goes past the dense rule (n > 2048): ncu's
# durations of each launch of one bf16 Detect call in place (clocks and caches as they run) at
# 4096 and 8192, then the scan launch's own sections (throughput, occupancy, launch stats) at
# 4096. Binary s48b (call 2's). Predicted: the scan ~25-30 us at 4096 (33.5 MB: ~1.1-1.3 TB/s,
# a third of DRAM's), the two gated launches ~2 us each, sm90_16bit ~47 us.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48b.tar.xz -C /tmp/v
T=/tmp/v/s48b/trimm L=$OUT/run.txt
for n in 4096 8192; do
  echo "== ncu bf16 detect $n" >> $L
  timeout 150 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
    $T bench --sizes $n --dtype bf16 --structure detect --no-anchors --runs 2 --warmup 1 2>&1 |
    grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | cut -c1-110 | head -60 >> $L
done
echo "== ncu scan sections 4096" >> $L
timeout 150 ncu --clock-control none --cache-control none -k regex:scan_kernel --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  $T bench --sizes 4096 --dtype bf16 --structure detect --no-anchors --runs 2 --warmup 1 > $OUT/scan_sections.txt 2>&1
grep -E "Duration|Throughput|Occupancy|Registers|Block Limit|Grid Size|Waves|Memory \[|DRAM|L2 Hit|Threads" $OUT/scan_sections.txt | head -40 >> $L
cat $L
