# Session 58, call 7 (~4 min): sm80_fp64 with the final dispatch (Detect from 2048 on 128×128,
# otherwise 64×64): tests, sanitizers, the fp64 bench, and ncu on the 64×64 kernel (stall reasons
# and the source page): call 6 put every size at ~2.5 µs a stage of a block whatever the load,
# ~4× what the fp64 tensor cores need for it.
# carry ["build-carry/s58j.tar.xz", ".deps/openblas"]
# Predicted: tests pass, sanitizers clean; bench as call 6's best of the two tiles per mode
# (4096 Triangular ~1.82, Detect ~3.13 ms on an H100); ncu: stalls on the copies' issue
# (long scoreboard / LSU) or on the loaders' integer chains, not on the tensor pipe.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s58j.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58j/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58j
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_TEST_MAX_N=4096 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.Detect*/default_upper_n2049:Sizes/GpuFp64.TriangularIntegersExact/default_upper_n2049:Sizes/GpuFp64Batched.*default_*_n130' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
timeout 150 $B/trimm bench --dtype fp64 --structure both --sizes 256,1024,2048,4096,8192 >> $L 2>&1
echo "bench rc $?" >> $L
ncu --clock-control none --kernel-name regex:sm80_fp64 --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy \
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SourceCounters \
  --import-source no -f -o /tmp/fp64rep \
  $B/trimm bench --dtype fp64 --sizes 2048 --runs 1 --warmup 1 --no-anchors > $OUT/ncu.log 2>&1
echo "ncu rc $?" >> $L
ncu --import /tmp/fp64rep.ncu-rep --page details > $OUT/ncu_details.txt 2>&1
ncu --import /tmp/fp64rep.ncu-rep --page source --csv --print-source sass > $OUT/ncu_source.csv 2>&1
python3 scripts/ncu_source_summary.py $OUT/ncu_source.csv 25 >> $L 2>&1
grep -E "Duration|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Stall|L1/TEX Hit|L2 Hit|Memory Throughput|DRAM Throughput|Compute \(SM\)" $OUT/ncu_details.txt | head -40 >> $L
cat $L
