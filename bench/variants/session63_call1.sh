# Session 63, call 1 (~7 min; prepared in session 62, whose device time ran out): what bounds
# fp64 at small n, where both modes still lose to DGEMM + triu (Triangular 0.75–0.95×, Detect
# 0.66–0.95× from 256 to 1024, H100, session 62). Two 32×32 shapes beside the landed one, in one
# knob build (bench/variants/s62_fp64_tiny_knobs.patch on main at 90da27b, src as 24fd24d; sm_90a alone):
#   TRIMM_X_TINY_ID=0 the landed tile (4 warps of 16×16, 16 k a stage, a 5-slice ring);
#   TRIMM_X_TINY_ID=1 32 k a stage (half the stages and barriers, a 3-slice ring);
#   TRIMM_X_TINY_ID=2 two warps of 16×32 (3 fragment reads a multiply against 4; a 3-slice
#     ring, seven blocks an SM).
# TRIMM_X_TINY_MAX=N: both modes take the tiny tile up to N.
# carry ["build-carry/s63.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s63 _y 90da27b bench/variants/s62_fp64_tiny_knobs.patch
#   then XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s63.tar.xz s63
# Predicted (H100; a guess, no profile yet): if the 32×32 kernel is bound by its stages' fixed
# cost (wait, barrier, loads' issue: the longest band's n/16 stages in a row), shape 1 gains
# ~25 % at 1024 (0.051 → ~0.038) and shape 2 little; if bound by shared-memory reads, shape 2
# gains ~15 % and shape 1 little. ncu then says which: stall reasons on the barrier and the
# cp.async wait, or on the LDS (MIO throttle, short scoreboard).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s63.tar.xz -C /tmp/v
L=$OUT/run.txt
Y=/tmp/v/s63
cat $Y/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
for id in 1 2; do
  echo "== test_gpu_y TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=2100 (the shape at every suite n to 2049)" >> $L
  TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=2100 BOX=150 TRIMM_TEST_MAX_N=8320 \
    scripts/gpu_shards.sh $Y/test_gpu_y 16 '*Fp64*' >> $L 2>&1
  echo "tests rc $? at $SECONDS s" >> $L
  for tool in memcheck racecheck; do
    TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=2100 timeout 60 compute-sanitizer --tool $tool \
      --error-exitcode 9 $Y/test_gpu_y \
      --gtest_filter='Sizes/GpuFp64.*default_upper_n129:Sizes/GpuFp64Batched.*default_lower_n130' \
      > $OUT/san_${tool}_$id.txt 2>&1
    echo "$tool id $id rc $? at $SECONDS s" >> $L
    grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_${tool}_$id.txt >> $L
  done
done
for r in 1 2; do
  for id in 0 1 2; do
    echo "== trimm_y TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=1536, round $r" >> $L
    TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=1536 timeout 60 $Y/trimm_y bench --dtype fp64 \
      --structure both --sizes 256,512,768,1024,1280,1536 >> $L 2>&1
  done
done
echo "bench done at $SECONDS s" >> $L
for id in 0 1 2; do
  for n in 512 1024; do
    TRIMM_X_TINY_ID=$id TRIMM_X_TINY_MAX=1536 timeout 60 ncu --clock-control none \
      --kernel-name regex:sm80_fp64 --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --section Occupancy --section LaunchStats --section SourceCounters \
      --import-source no -f -o /tmp/fp64_${id}_$n \
      $Y/trimm_y bench --dtype fp64 --sizes $n --runs 1 --warmup 1 --no-anchors \
      > $OUT/ncu_${id}_$n.log 2>&1
    echo "== ncu id $id n=$n rc $? at $SECONDS s" >> $L
    ncu --import /tmp/fp64_${id}_$n.ncu-rep --page details > $OUT/ncu_details_${id}_$n.txt 2>&1
    grep -E "Duration|Grid Size|Block Size|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Stall|Compute \(SM\)|Memory Throughput" \
      $OUT/ncu_details_${id}_$n.txt | head -30 >> $L
  done
  ncu --import /tmp/fp64_${id}_1024.ncu-rep --page source --csv --print-source sass \
    > $OUT/ncu_source_$id.csv 2>&1
  python3 scripts/ncu_source_summary.py $OUT/ncu_source_$id.csv 20 >> $L 2>&1
done
timeout 60 ncu --clock-control none --kernel-name regex:'gemm|Gemm|triu|Kernel|xmma' \
  --launch-count 4 --section SpeedOfLight --section LaunchStats \
  $Y/trimm_y bench --dtype fp64 --sizes 512 --runs 1 --warmup 1 > $OUT/ncu_dgemm.txt 2>&1
echo "== ncu cuBLAS at 512 rc $? at $SECONDS s" >> $L
grep -E "^  [a-zA-Z_].*\(|Duration|Grid Size|Block Size|Registers Per" $OUT/ncu_dgemm.txt | head -20 >> $L
tail -c 11000 $L
