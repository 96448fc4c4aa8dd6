# Session 64, call 11 (~1 min): the three sizes call 10 left below DGEMM + triu (Triangular 257,
# Detect 500 and 511), each against another shape: the probe (bench/variants/
# s64_fp64_probe_257_500.patch, _p) runs Triangular on the four-warp tile from 257 and Detect's
# dense launch on the 4-slice ring from 481; main is call 10's build (b5fdf55). Three rounds.
# carry ["build-carry/s64k.tar.xz", "build-carry/s64p.tar.xz", ".deps/openblas"]
# Build here: TARGETS=trimm_cli scripts/build_variant.sh /tmp/pk/s64p _p HEAD
#   bench/variants/s64_fp64_probe_257_500.patch; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64p.tar.xz s64p
# Predicted (H100): Triangular 257 on four warps ~0.0118 (nine stages of 32 k, the last one of 1 k
# costing less than the eight-warp tile's fifth of 64 k), still near 1×; Detect 500 and 511 on the
# 4-slice ring ~0.017 and ~0.020 (as 512's 0.0162 plus the partial stage), ≈ 1×.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s64k.tar.xz -C /tmp/v && tar -xJf build-carry/s64p.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s64k/COMMIT /tmp/v/s64p/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
for r in 1 2 3; do
  for v in s64k/trimm s64p/trimm_p; do
    echo "== round $r: $v triangular" >> $L
    timeout 30 /tmp/v/$v bench --dtype fp64 --sizes 257,258,260,272,288,300,320,321 --no-anchors >> $L 2>&1
    echo "== round $r: $v detect" >> $L
    timeout 30 /tmp/v/$v bench --dtype fp64 --structure detect \
      --sizes 481,488,496,500,504,505,510,511,512 --no-anchors >> $L 2>&1
  done
done
grep -E "==|NVIDIA" $L | head -3
