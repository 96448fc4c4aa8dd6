# Session 60, call 2 (~4 min, on call 1's build-carry/s60.tar.xz; prepared in session 59, never
# run): the knobs of bench/variants/s59_fp64_knobs.patch (trimm_z, test_gpu_z: sm_90a alone,
# spills warned only). Timings to set config::kSm80Fp64GatedMinN, the tiny tile's range, and
# whether Triangular takes 128×128 at large n now that its band edges are on the tensor cores (it
# spills 32 bytes there: a lead, not a landing); then tests with the 32×32 tile at every n and
# with Triangular on 128×128 at every n (both with the gate at every n). Timings come first so
# that session60_call12.sh can cut the tests short at the time limit and keep them.
# carry ["build-carry/s60.tar.xz", ".deps/openblas"]
# Predicted (H100): gated Detect wins from n = 512 (three launches' ~8 µs against the dense
# launch's extra k); the tiny tile wins at 256 (~0.012 ms) and loses from 1024; Triangular on
# 128×128 from 4096 ~0.85 ms against 64×64's ~1.0.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s60.tar.xz -C /tmp/v
L=$OUT/run2.txt
B=/tmp/v/s60
cat $B/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
echo "== trimm_z TRIMM_X_GATED_MIN_N=0" >> $L
TRIMM_X_GATED_MIN_N=0 timeout 60 $B/trimm_z bench --dtype fp64 --structure detect --sizes 256,512,1024 >> $L 2>&1
echo "== trimm_z TRIMM_X_TINY_MAX=2048" >> $L
TRIMM_X_TINY_MAX=2048 timeout 60 $B/trimm_z bench --dtype fp64 --structure both --sizes 256,512,1024,2048 >> $L 2>&1
echo "== trimm_z TRIMM_X_DET_LARGE_MIN=100000 (Detect on 64x64 everywhere; gated dense path unused)" >> $L
TRIMM_X_DET_LARGE_MIN=100000 TRIMM_X_GATED_MIN_N=100000 timeout 60 $B/trimm_z bench --dtype fp64 --structure detect --sizes 2048,4096 >> $L 2>&1
echo "== trimm_z TRIMM_X_TRI_LARGE_MIN=2048 (Triangular and gated Detect's band on 128x128)" >> $L
TRIMM_X_TRI_LARGE_MIN=2048 timeout 60 $B/trimm_z bench --dtype fp64 --structure both --sizes 2048,4096,8192 >> $L 2>&1
echo "== trimm_z, no knobs (its own baseline)" >> $L
timeout 60 $B/trimm_z bench --dtype fp64 --structure both --sizes 256,1024,2048,4096,8192 >> $L 2>&1
echo "== test_gpu_z, TRIMM_X_GATED_MIN_N=0 TRIMM_X_TINY_MAX=100000 (and 32x32 at every n)" >> $L
TRIMM_X_GATED_MIN_N=0 TRIMM_X_TINY_MAX=100000 BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu_z 16 '*Fp64*' >> $L 2>&1
echo "tests rc $?" >> $L
echo "== test_gpu_z, TRIMM_X_GATED_MIN_N=0 TRIMM_X_TRI_LARGE_MIN=0 (Triangular on 128x128 at every n)" >> $L
TRIMM_X_GATED_MIN_N=0 TRIMM_X_TRI_LARGE_MIN=0 BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh $B/test_gpu_z 16 '*Fp64*' >> $L 2>&1
echo "tests rc $?" >> $L
cat $L
