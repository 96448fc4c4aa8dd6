# Session 63, call 6 (~1 min): fp64 Detect's gate and dense tile limits after the fast copies.
# trimm_g: main at the commit in s63g/COMMIT + bench/variants/s63_fp64_dense_knobs.patch
# (TRIMM_X_GATED_MIN_N, TRIMM_X_TINY_DENSE_MAX). carry ["build-carry/s63g.tar.xz", ".deps/openblas"]
# Build here: TARGETS=trimm_cli scripts/build_variant.sh /tmp/pk/s63g _g HEAD bench/variants/s63_fp64_dense_knobs.patch
# Predicted (H100): the dense launch on the 32×32 tile, all its stages on the fast copies, beats
# the gated launch at 768 and 1024 (~0.023 and ~0.032 against 0.039 and 0.049: its longest chain
# has n/32 fast stages, the gated one the scan and a third launch besides) and loses from ~1536.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s63g.tar.xz -C /tmp/v
L=$OUT/a_run.txt G=/tmp/v/s63g/trimm_g S=512,768,1024,1280,1536,1792,2048
cat /tmp/v/s63g/COMMIT >> $L; nvidia-smi --query-gpu=name --format=csv >> $L
for r in 1 2; do
  echo "== round $r: landed (gated from 768)" >> $L
  timeout 60 $G bench --dtype fp64 --structure detect --sizes $S >> $L 2>&1
  echo "== round $r: dense, 32x32 to 2048 (TRIMM_X_GATED_MIN_N=100000 TRIMM_X_TINY_DENSE_MAX=2048)" >> $L
  TRIMM_X_GATED_MIN_N=100000 TRIMM_X_TINY_DENSE_MAX=2048 timeout 60 $G bench --dtype fp64 \
    --structure detect --sizes $S --no-anchors >> $L 2>&1
  echo "== round $r: dense, landed tiles (TRIMM_X_GATED_MIN_N=100000)" >> $L
  TRIMM_X_GATED_MIN_N=100000 timeout 60 $G bench --dtype fp64 --structure detect --sizes $S \
    --no-anchors >> $L 2>&1
done
grep -E "==|trimm sm|reference" $L
