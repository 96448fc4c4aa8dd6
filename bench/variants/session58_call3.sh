# Session 58, call 3 (~3 min): fp64 data, never timed before: trimm's one fp64 kernel
# (simt_fp64, plain 64×64 tiles of FMA) against cuBLAS DGEMM + triu (what torch.triu(A @ B) runs
# on float64), Triangular and Detect (the PyTorch operator's mode for float64).
# carry ["build-carry/s58f.tar.xz", ".deps/openblas"]
# Predicted (H200): the kernel is shared-memory bound (8 doubles read a 16 FMAs: ≤ 32 FMA a cycle
# an SM, ~16 TFLOP/s at best, ~10 real): Triangular 4096 ~2.3 ms against DGEMM + triu ~2.5 (≈1.1×);
# Detect (n³ flops) ~7 ms, ~0.35×: slower than torch for the operator's float64 path.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s58f.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s58f/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s58f/trimm
timeout 300 $B bench --dtype fp64 --structure both --sizes 256,512,1024,2048,4096,8192 >> $L 2>&1
echo "fp64 rc $?" >> $L
timeout 200 $B bench --dtype fp64 --structure both --sizes 16384 --runs 20 --warmup 1 >> $L 2>&1
echo "fp64 16384 rc $?" >> $L
cat $L
