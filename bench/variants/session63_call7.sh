# Session 63, call 7 (run as a one-line command; recorded here): main at 7b9d213 (Detect gated
# from 1025) under the fp64 suite.
# carry ["build-carry/s63p.tar.xz", ".deps/openblas"]
# Build here: TARGETS=test_gpu scripts/build_variant.sh /tmp/pk/s63p "" 7b9d213; XZ_OPT=-6 tar -C /tmp/pk -cJf build-carry/s63p.tar.xz s63p
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s63p.tar.xz -C /tmp/v
L=$OUT/a_run.txt
cat /tmp/v/s63p/COMMIT >> $L
nvidia-smi --query-gpu=name --format=csv >> $L
BOX=90 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s63p/test_gpu 16 '*Fp64*' >> $L 2>&1
echo "tests rc $?" >> $L
cat $L | grep -v "^  shard"
