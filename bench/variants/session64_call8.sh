# Session 64, call 8 (~2 min): Detect's dense launch at 544–992 (every 32) on each of the three
# 32×32 shapes, to set their limits from a dense sample: call 7 found 704 at 0.97–0.98× DGEMM +
# triu on the deep ring (79bac79), which call 6 had timed only at 768.
#   _eight_to1024 (bench/variants/s64_fp64_dense_eight_to1024.patch): eight warps to 1000;
#   _deep_to1024 (s64_fp64_dense_deep_to1024.patch): the 4-slice ring from 501 to 1010;
#   _three_from513 (s64_fp64_dense_three_from513.patch): the 3-slice ring from 513.
# carry ["build-carry/s64h.tar.xz", ".deps/openblas"]
# Build here: TARGETS=trimm_cli scripts/build_variant.sh /tmp/pk/s64h_V _V 79bac79
#   bench/variants/s64_fp64_dense_V.patch for V above; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64h.tar.xz s64h_eight_to1024 s64h_deep_to1024 s64h_three_from513
# Predicted (H100): each shape best while its tiles fit one wave (eight warps: ≤ 264 tiles, n ≤
# ~704; deep: ≤ 396, n ≤ ~864; three slices past), and cuBLAS's own steps (704 fast) decide the
# ratios near 1×.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64h.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s64h_*/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
S=544,576,608,640,672,704,736,768,800,832,864,896,928,960,992
for r in 1 2; do
  for v in eight_to1024 deep_to1024 three_from513; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/s64h_$v/trimm_$v bench --dtype fp64 --structure detect --sizes $S \
      --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
grep -E "==|rc |NVIDIA" $L
