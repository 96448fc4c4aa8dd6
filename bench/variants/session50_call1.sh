# Prepared in session 49 (no device lent), for the next session's first device call (~4 min).
# carry ["build-carry", ".deps/openblas"]
# Binaries built in session 49 on the CPU machine:
#   build-carry/s49m.tar.xz   main at ada78cd (kernels as 3464fbb): trimm, test_gpu_16bit,
#                             test_dispatch
#   build-carry/s49cvt.tar.xz the throwaway probe bench/variants/s49_cvt_overlap.patch on f654f8f
# 1. f5bfe8f (the flags path's gated dense launch from KernelEntry16::gated_dense), 3464fbb
#    (check_dense_product), d347c39 (batch_problem16) and ada78cd (make_batch16) have only
#    been CI-checked: run the Detect16 tests and test_dispatch.
# 2. The tf32 bar's fused design (docs/sm90_fp16x1_fused_plan.md) rests on one unmeasured
#    number: what sm90_16bit's product pays when its own SMs also stream fp32 → fp16 beside it.
#    The probe: sm90_16bit with 5 stages (6 do not fit beside 32 KB of bulk-copy buffers) whose
#    helper warps 10-11 convert TRIMM_PROBE_CVT_MB MiB of fp32 (1D bulk copies into a ring of
#    four 4 KB buffers a warp, evict-first) to fp16 with 8-byte stores while the product runs.
#    64 MiB is A's and B's upper triangles at n = 4096 in fp32; the product still reads its own
#    bf16 inputs from DRAM (33.5 MB the fused kernel would find in L2), so this overstates DRAM.
#    Predicted (bf16 4096, ms): main 6 stages 0.0488-0.0495; probe 0 MiB +0-0.001 (5 stages);
#    32 MiB +0.004-0.005; 64 MiB +0.0085 (0.057) if the conversion costs only its share of
#    the SMs' intake (session 43: the product's 2.97 MB an SM in ~48 us is the ~60 GB/s cap;
#    64 MiB adds 0.51 MB an SM), +0.015-0.025 if DRAM or the product's L2 misses make it
#    serial; 128 MiB twice the 64 MiB increment if bandwidth-bound.
#    (2048 takes the unpaired kernel, whose helper warps 10-11 convert too, unless it is a
#    cluster-split launch, which skips the conversion: compare 2048 with caution.)
#    Verdict rule: 64 MiB at <= 0.060 at 4096 keeps the fused tf32 design alive (its budget:
#    ~0.057-0.065 plus promotion), >= 0.070 kills it. Session 46 is a warning: sm90_fp16x3's
#    helper warps reading 64 MB beside its product stretched it by ~23 us, as much as a launch
#    of their own (DRAM shared at ~2.8 TB/s); this probe moves 134 MB through DRAM (the fused
#    kernel ~67-100), so the warm-L2 rounds (the product's inputs left in L2) are the closer
#    model: judge by probe-64-warm minus main-warm as well (predicted +7-9 us).
# 3. sm90_16bit under Detect +6 us over its own call at 4096 (session 48): ncu's SOL and memory
#    sections from a Triangular call and a Detect call (was session49_call1.sh, on s49m now).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && for b in s49m s49cvt; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
M=/tmp/v/s49m P=/tmp/v/s49cvt/trimm L=$OUT/run.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv >> $L
echo "== tests (s49m)" >> $L
(cd $M && timeout 240 ./test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/detect16.txt 2>&1;
 echo "Detect16 rc $?" >> $L; timeout 60 ./test_dispatch > $OUT/dispatch.txt 2>&1;
 echo "test_dispatch rc $?" >> $L)
tail -3 $OUT/detect16.txt >> $L; tail -2 $OUT/dispatch.txt >> $L
bench() {  # label, binary, env... [-- bench options]; a failing run stops the script
  local label=$1 bin=$2 envs=() extra=(); shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  [ "$1" = "--" ] && shift && extra=("$@")
  echo "== $label" >> $L
  env "${envs[@]}" timeout 60 $bin bench --dtype bf16 --sizes 2048,3072,4096 --no-anchors \
    "${extra[@]}" > $OUT/last.txt 2>&1
  local rc=$?
  grep -E "trimm sm|PROBE|rror|FAIL" $OUT/last.txt >> $L
  if [ $rc -ne 0 ]; then
    echo "rc $rc: stopping" >> $L; tail -5 $OUT/last.txt >> $L; cat $L; exit 1
  fi
}
for round in 1 2; do
  bench "main (6 stages), round $round" $M/trimm X=0
  bench "probe 0 MiB (5 stages), round $round" $P TRIMM_PROBE_CVT_MB=0
  bench "probe 32 MiB, round $round" $P TRIMM_PROBE_CVT_MB=32
  bench "probe 64 MiB, round $round" $P TRIMM_PROBE_CVT_MB=64
done
bench "probe 128 MiB" $P TRIMM_PROBE_CVT_MB=128
# The fused kernel's DRAM traffic is the fp32 stream alone (its planes stay in L2); here the
# product's bf16 inputs come from DRAM too unless L2 still holds them: --warm-l2 (no flush).
for round in 1 2; do
  bench "main, warm L2, round $round" $M/trimm X=0 -- --warm-l2
  bench "probe 64 MiB, warm L2, round $round" $P TRIMM_PROBE_CVT_MB=64 -- --warm-l2
done
for st in triangular detect; do
  echo "== ncu sm90_16bit product, bf16 4096, --structure $st" >> $L
  timeout 150 ncu --clock-control none --cache-control none -k regex:sm90_bf16_trtrmm_kernel \
    --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats $M/trimm bench --sizes 4096 --dtype bf16 --structure $st --no-anchors \
    --runs 2 --warmup 1 > $OUT/ncu_$st.txt 2>&1
  grep -E "Duration|DRAM Throughput|L2 Hit|Memory Throughput|Grid Size|Cluster|Registers" \
    $OUT/ncu_$st.txt | head -20 >> $L
done
cat $L
