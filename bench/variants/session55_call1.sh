# Session 55's second device call (~6-9 min, boxed), after session55_call0.sh: the whole GPU
# suites in shards, every size (TRIMM_TEST_MAX_N=8320). Sessions 53-54's host-path changes and
# GPU tests (the capture tests among them) have not run on a GPU; session55_call0.sh ran only
# the tall cases of test_gpu_16bit.
# carry ["build-carry/s55t.tar.xz", "build-carry/s54.tar.xz", ".deps/openblas"]
# test_gpu_16bit of the tall branch (a superset of s54's cases: Tall/* added, 4097 and WidePairs
# upper now on the tall units); test_gpu of s54 (main's, unchanged by the branch: the square
# kernels' SASS is identical, scripts/sass_identity.py). Predicted: every case passes; wall
# ~150-300 s each (the fp64 references at 8192 dominate).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && for b in s55t s54; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
L=$OUT/run.txt
cat /tmp/v/s55t/COMMIT /tmp/v/s54/COMMIT >> $L
BOX=280 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s55t/test_gpu_16bit 16 >> $L 2>&1
echo "test_gpu_16bit rc $?" >> $L
BOX=250 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s54/test_gpu 16 >> $L 2>&1
echo "test_gpu rc $?" >> $L
cat $L
