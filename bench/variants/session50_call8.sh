# Prepared in session 50 (no device lent): the GPU tests session 50 added or changed, never run
# on a GPU (~8-9 min; the runs are time-boxed). carry ["build-carry", ".deps/openblas"]
# build-carry/s50t.tar.xz: test_gpu, test_gpu_16bit, test_dispatch of f3ed908, built here.
# - GpuTrtrmmPrecision (each precision unforced across dispatch's thresholds, 1000-4097) and
#   Dispatch/GpuTrtrmm (no kernel forced, every size): dispatch's own choices had no test that
#   checked results above the small kernel but fp16x3 at 3072.
# - runs_here / runs_here16 / GpuTrtrmm's SetUp now skip only where the table says a kernel does
#   not run here; a refusal elsewhere fails (it used to print SKIPPED and pass).
# - GpuBackward against the fp64 CPU backward (was the fp32 one), sizes 127, 129, 2500 added.
# - TRIMM_REQUIRE_GPU=1: a missing GPU fails instead of skipping.
# - sm90_16bit's persistent blocks (2560) and pairs (3072) with ld > n (PaddedLeadingDimensions).
# - GpuDetectGate: the fp32 gated launches (sm90_tf32x3/sm90_tf32 Dense, sm90_tf32x3 Fallback,
#   naive_fp32 Exact, simt_small_fp32 AnyFlag) alone on preset words: C written entirely where
#   the path applies, not at all elsewhere, the word unchanged.
# - test_dispatch's UnknownKernelIsRefusedBeforeAnyDeviceQuery (passes on the CPU machine).
# Predicted: all pass; on the H200 no "[ SKIPPED ]" line from runs_here (every table entry runs
# on sm_90). A failure in GpuTrtrmmPrecision is a dispatch or tolerance finding, not a flake:
# replay it with the printed TRIMM_TEST_SEED.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s50t.tar.xz -C /tmp/v
T=/tmp/v/s50t L=$OUT/run.txt
cat $T/COMMIT >> $L
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv >> $L
run() {  # label, seconds, binary, filter
  echo "== $1" >> $L
  timeout $2 $T/$3 --gtest_filter="$4" > $OUT/$1.txt 2>&1
  echo "rc $?" >> $L
  grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]|tests? ran" $OUT/$1.txt | sort | uniq -c | head -20 >> $L
}
# The whole call stays under the tool's 600 s: each run is cut at its limit (rc 124), the
# counts up to there still reported.
run test_dispatch 30 test_dispatch '*'
run precision 160 test_gpu 'Unforced/GpuTrtrmmPrecision.*'
run unforced 130 test_gpu 'Dispatch/GpuTrtrmm.*'
run backward 120 test_gpu 'Sizes/GpuBackward*:GpuTrtrmmReference.*:GpuTrtrmmDispatch.*:GpuDetectGate.*'
run padded16 60 test_gpu_16bit '*PaddedLeadingDimensions/*sm90_16bit_*_n2560:*PaddedLeadingDimensions/*sm90_16bit_*_n3072'
run forced16 80 test_gpu_16bit '*GpuTrtrmm16.*_n129*:*GpuTrtrmm16.*_n1000*:GpuTrtrmm16Batched*'
cat $L
