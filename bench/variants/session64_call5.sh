# Session 64, call 5 (~2 min): main at 35c7195 (src as landed) on an H200, where issue #3's bars
# are set and where fp64 has not been swept since session 58: the fp64 sweep from 16 to 16384,
# twice, against cuBLAS DGEMM + triu.
# carry ["build-carry/s64f.tar.xz", ".deps/openblas"] (call 4's build)
# Predicted (H200): ratios as the H100's within ~10 % (same SM count class, 4.8 TB/s against 3.35:
# the small sizes are latency-bound on both, the large ones DMMA-bound); every size ≥ 1×, the
# closest Triangular at 256 and Detect at 512–896.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_OPENBLAS_ROOT=$PWD/.deps/openblas
mkdir -p /tmp/v && tar -xJf build-carry/s64f.tar.xz -C /tmp/v
L=$OUT/a_run.txt
M=/tmp/v/s64f
cat $M/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
for r in 1 2; do
  echo "== sweep $r" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both \
    --sizes 16,64,128,192,256,384,512,640,768,896,1024,1280,1536,2048,3072,4096,8192 >> $L 2>&1
  echo "bench rc $? at $SECONDS s" >> $L
  timeout 120 $M/trimm bench --dtype fp64 --structure both --sizes 16384 --runs 20 >> $L 2>&1
  echo "bench 16384 rc $? at $SECONDS s" >> $L
done
grep -E "==|rc |NVIDIA" $L
