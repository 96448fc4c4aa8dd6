# Session 60, call 1 (~5 min; session60_call2.sh follows on the same build). Prepared in session
# 59, compiled there, never run (the device refused four starts, then lent no more). Three patches
# on main, applied in this order:
#   bench/variants/s59_fp64_band_tc.patch: sm80_fp64's band-edge stages on the tensor cores
#     (the operands' other triangles loaded as zeros; a tile whose sums come out NaN or Inf runs
#     again with those stages in plain FMA), two-double copies on those stages too, Detect
#     compiled apart (kDense), a test with one NaN or Inf at a random place;
#   bench/variants/s59_fp64_gated_detect.patch: fp64 Detect with a workspace, gated as the other
#     dtypes' (a scan of A's and B's other triangles, scan_16bit.cu renamed scan_operands.cu; the
#     band launch; the dense launch where anything was flagged), from config::kSm80Fp64GatedMinN
#     (1024, a guess for this call to settle); the PyTorch operator passes a flag word for
#     float64; the Detect tests run with and without the workspace;
#   bench/variants/s59_fp64_knobs.patch (variant only, never to land): TRIMM_X_GATED_MIN_N,
#     TRIMM_X_TINY_MAX (a 32×32 tile up to that n), TRIMM_X_DET_LARGE_MIN, TRIMM_X_TRI_LARGE_MIN
#     (Triangular on 128×128); it builds sm_90a alone with spills warned, not errors (that tile
#     spills 32 bytes).
# The patches apply in sequence on main at 3cd0721 and ee3aad8 (checked); session 59 compiled both trees
# (no spills; the 16-bit scan's and the small kernels' machine code unchanged, by
# scripts/sass_identity.py and a direct cubin compare for the renamed scan) and ran the CPU tests
# (ctest -LE gpu: all pass), and a review found no correctness bug (its findings are fixed:
# no second pass for a flagged tile under the gate, one atomic a tile, tests for a dirty flag
# word, -0.0 in the other triangles and the gate over a batch with shared operands).
# Build here (~3 min each on 2 cores; .deps/ from scripts/device-deps.sh):
#   P=bench/variants; rm -rf /tmp/pk/s60
#   scripts/build_variant.sh /tmp/pk/s60 "" HEAD $P/s59_fp64_band_tc.patch $P/s59_fp64_gated_detect.patch
#   scripts/build_variant.sh /tmp/pk/s60 _z HEAD $P/s59_fp64_band_tc.patch \
#     $P/s59_fp64_gated_detect.patch $P/s59_fp64_knobs.patch
#   TARGETS=trimm_cli scripts/build_variant.sh /tmp/pk/s60 _base HEAD
#   mkdir -p build-carry && XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s60.tar.xz s60
# Landing the candidate: apply the first two patches to main, `python3 scripts/gen_kernelbench.py`,
# commit each with its numbers.
# carry ["build-carry/s60.tar.xz", ".deps/openblas"]
# Predicted (H100, against main's sm80_fp64 of session 59 call 1: Triangular 256 0.062 ms, 1024
# 0.117, 2048 0.305, 4096 1.21; Detect 2.04 at 4096): Triangular 256 ~0.02, 1024 ~0.06, 2048
# ~0.2, 4096 ~1.0; Detect (gated, triangular inputs) about Triangular + 5 % from 1024 (4096 ~1.05
# against 2.04); tests pass; sanitizers clean. The 16-bit scan's machine code is unchanged by
# the rename and the fp64 words (checked in session 59 against sm_80 and sm_90a cubins), so the
# 16-bit suites need no rerun.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s60.tar.xz -C /tmp/v
L=$OUT/run.txt
B=/tmp/v/s60
cat $B/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu (candidate)" >> $L
BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu 16 '*Fp64*:*Backward*' >> $L 2>&1
echo "tests rc $?" >> $L
echo "== test_gpu_z, TRIMM_X_GATED_MIN_N=0 (gated Detect at every n)" >> $L
TRIMM_X_GATED_MIN_N=0 BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu_z 16 '*Fp64*' >> $L 2>&1
echo "tests rc $?" >> $L
for tool in memcheck racecheck synccheck; do
  TRIMM_X_GATED_MIN_N=0 TRIMM_TEST_MAX_N=4096 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 \
    $B/test_gpu_z --gtest_filter='Sizes/GpuFp64.*default_*_n129:Sizes/GpuFp64.TriangularOneNonFiniteValue/default_upper_n1000:Sizes/GpuFp64Batched.*default_upper_n130:Sizes/GpuFp64Batched.DetectGatedOverTheBatch/default_upper_n1' \
    > $OUT/san_$tool.txt 2>&1
  echo "$tool (gated at every n) rc $?" >> $L; grep -E "ERROR SUMMARY|PASSED|FAILED|RACECHECK SUMMARY" $OUT/san_$tool.txt >> $L
done
for b in trimm trimm_base trimm trimm_base; do
  echo "== $b" >> $L
  timeout 60 $B/$b bench --dtype fp64 --structure both --sizes 256,512,1024,2048,4096,8192 >> $L 2>&1
  echo "bench rc $?" >> $L
done
echo "== noisy inputs (Detect: the scan flags them, the dense launch runs): trimm, trimm_base" >> $L
for b in trimm trimm_base; do
  timeout 60 $B/$b bench --dtype fp64 --structure detect --noisy --sizes 1024,4096 >> $L 2>&1
done
cat $L
