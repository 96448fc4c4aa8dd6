# Session 60, call 3 (~3 min, on call 1's build-carry/s60.tar.xz; prepared in session 59, never
# run): ncu on the candidate's sm80_fp64 (band edges on the tensor cores) at 2048 Triangular and
# 4096 Triangular, the form of session 58's call 7, to see what binds once the band edges' FMA
# is gone: the loaders, the ring's waits, or the tensor pipe.
# carry ["build-carry/s60.tar.xz", ".deps/openblas"]
# Predicted (H100): DMMA's share of stall samples up from 1.6 % to ~10 %, the loaders still the
# most sampled code, issue slots ~35 % busy; warps a scheduler unchanged (2.1).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s60.tar.xz -C /tmp/v
L=$OUT/run3.txt
B=/tmp/v/s60
cat $B/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
for n in 2048 4096; do
  ncu --clock-control none --kernel-name regex:sm80_fp64 --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section SchedulerStats --section WarpStateStats \
    --section SourceCounters --import-source no -f -o /tmp/fp64rep_$n \
    $B/trimm bench --dtype fp64 --sizes $n --runs 1 --warmup 1 --no-anchors > $OUT/ncu_$n.log 2>&1
  echo "ncu $n rc $?" >> $L
  ncu --import /tmp/fp64rep_$n.ncu-rep --page details > $OUT/ncu_details_$n.txt 2>&1
  ncu --import /tmp/fp64rep_$n.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source_$n.csv 2>&1
  echo "== n = $n" >> $L
  python3 scripts/ncu_source_summary.py $OUT/ncu_source_$n.csv 25 >> $L 2>&1
  grep -E "Duration|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Stall|L1/TEX Hit|L2 Hit|Memory Throughput|DRAM Throughput|Compute \(SM\)" $OUT/ncu_details_$n.txt | head -40 >> $L
done
cat $L
