# Session 62, call 4 (~1.5 min): what bounds fp64 at small n (Triangular 0.75–0.95× DGEMM + triu
# to 1024): ncu on sm80_fp64's 32×32 tile at 512 and 1024, and on cuBLAS's DGEMM at 512.
# carry ["build-carry/s62b.tar.xz", ".deps/openblas"]
# Predicted (H100): the kernel's own duration well under the bench's 0.0225 ms at 512 (~0.012:
# the rest the launch and the lower tiles' zeros?) — or, if near it, stalls on the cp.async
# wait and the barrier (the longest band's 32 stages in a row); few warps a scheduler (~2).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s62b.tar.xz -C /tmp/v
L=$OUT/run.txt
B=/tmp/v/s62b
cat $B/COMMIT >> $L
for n in 512 1024; do
  timeout 60 ncu --clock-control none --kernel-name regex:sm80_fp64 --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --section MemoryWorkloadAnalysis --section SourceCounters \
    --import-source no -f -o /tmp/fp64_$n \
    $B/trimm bench --dtype fp64 --sizes $n --runs 1 --warmup 1 --no-anchors > $OUT/ncu_$n.log 2>&1
  echo "== ncu sm80_fp64 n=$n rc $? at $SECONDS s" >> $L
  ncu --import /tmp/fp64_$n.ncu-rep --page details > $OUT/ncu_details_$n.txt 2>&1
  ncu --import /tmp/fp64_$n.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source_$n.csv 2>&1
  python3 scripts/ncu_source_summary.py $OUT/ncu_source_$n.csv 20 >> $L 2>&1
  grep -E "Duration|Grid Size|Block Size|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Stall|L2 Hit|Memory Throughput|DRAM Throughput|Compute \(SM\)|Waves Per SM" $OUT/ncu_details_$n.txt | head -40 >> $L
done
timeout 60 ncu --clock-control none --kernel-name regex:'gemm|Gemm|triu|Kernel|xmma' --launch-count 4 \
  --section SpeedOfLight --section LaunchStats \
  $B/trimm bench --dtype fp64 --sizes 512 --runs 1 --warmup 1 > $OUT/ncu_dgemm.txt 2>&1
echo "== ncu cuBLAS at 512 rc $? at $SECONDS s" >> $L
grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Registers Per" $OUT/ncu_dgemm.txt | head -20 >> $L
cat $L
