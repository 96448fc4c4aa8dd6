# Session 64, call 6 (~2 min): the four-warp 32×32 tile (Triangular 769–2048, Detect's dense
# launch 641–1024, where Detect sits at 1.01–1.02× DGEMM + triu at 768 and 896) with 64 k a stage
# (bench/variants/s64_fp64_tiny_bk64.patch, _tbk64: 107 KB, two blocks an SM) or a 4-slice ring
# of 32 k (s64_fp64_tiny_stages4.patch, _tstages4: 74 KB, three blocks an SM), against main at
# 35c7195 (call 4's build), three rounds.
# carry ["build-carry/s64f.tar.xz", "build-carry/s64t.tar.xz", ".deps/openblas"]
# Build here: TARGETS=trimm_cli scripts/build_variant.sh /tmp/pk/s64t_V _tV HEAD
#   bench/variants/s64_fp64_tiny_V.patch for V in bk64 stages4; XZ_OPT=-9e tar -C /tmp/pk -cJf
#   build-carry/s64t.tar.xz s64t_bk64 s64t_stages4
# Predicted (H100): _tbk64 Detect 768 ~0.027 (half the chain's waits, as the eight-warp tile
# gained 6–8 %), Triangular 1024 ~0.033, losing past ~1536 where four blocks an SM matter;
# _tstages4 within 2 % of main (the eight-warp tile's 5-slice ring gained 0–1 %).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64f.tar.xz -C /tmp/v && tar -xJf build-carry/s64t.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s64f/COMMIT /tmp/v/s64t_*/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
for r in 1 2 3; do
  for v in s64f/trimm s64t_bk64/trimm_tbk64 s64t_stages4/trimm_tstages4; do
    echo "== round $r: $v" >> $L
    timeout 60 /tmp/v/$v bench --dtype fp64 --structure both \
      --sizes 768,896,1024,1280,1536,2048 --no-anchors >> $L 2>&1
    echo "bench rc $? at $SECONDS s" >> $L
  done
done
grep -E "==|rc |NVIDIA" $L
