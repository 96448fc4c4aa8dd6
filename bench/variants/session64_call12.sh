# Session 64, call 12 (~3 min): two accumulator chains a warp on the eight-warp 32×32 tile
# (bench/variants/s64_fp64_two_chains.patch, _c: its warps hold one m16n8 tile, so each DMMA
# waited on the one before) against main (call 10's build, b5fdf55): the fp64 suite on _c, then
# the sizes calls 10–11 found below DGEMM + triu (257–321 Triangular, 481–511 Detect) and a few
# aligned ones, three rounds.
# carry ["build-carry/s64k.tar.xz", "build-carry/s64c.tar.xz", ".deps/openblas"]
# Build here: scripts/build_variant.sh /tmp/pk/s64c _c HEAD bench/variants/s64_fp64_two_chains.patch;
#   XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s64c.tar.xz s64c
# Predicted (H100): suite passes; if the DMMA chain bounds a stage, 256 ~0.0085 and 512 Detect
# ~0.015 (10 %); if the start-up and copies do (ncu at 256: DMMA ≤ 3 % of stall samples), ±2 %.
# I lean to the second.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64k.tar.xz -C /tmp/v && tar -xJf build-carry/s64c.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s64k/COMMIT /tmp/v/s64c/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== test_gpu_c *Fp64*" >> $L
BOX=150 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s64c/test_gpu_c 16 '*Fp64*' >> $L 2>&1
echo "tests rc $? at $SECONDS s" >> $L
for r in 1 2 3; do
  for v in s64k/trimm s64c/trimm_c; do
    echo "== round $r: $v triangular" >> $L
    timeout 30 /tmp/v/$v bench --dtype fp64 --sizes 128,256,257,272,300,321,384,512,640,768 --no-anchors >> $L 2>&1
    echo "== round $r: $v detect" >> $L
    timeout 30 /tmp/v/$v bench --dtype fp64 --structure detect \
      --sizes 128,256,384,481,496,500,511,512,640,704 --no-anchors >> $L 2>&1
  done
done
grep -E "==|rc |NVIDIA" $L | grep -v round
