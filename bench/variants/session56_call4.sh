# Session 56, call 4 (~5 min, boxed): the whole GPU suites at main's head, every size
# (TRIMM_TEST_MAX_N=8320), with the tests' upload fix (f5a4d80) that calls 1-2 checked only on
# the capture tests. Session 55 ran test_gpu_16bit whole once (3095 passed, 1 failed: the
# capture flake) and test_gpu whole once (2026 passed), from branch binaries.
# carry ["build-carry/s56.tar.xz", ".deps/openblas"]; s56: trimm, test_gpu_16bit and test_gpu
# of main (its COMMIT file names the commit).
# Predicted: every case passes in both; wall ~120-150 s each.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s56/COMMIT >> $L
BOX=280 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s56/test_gpu_16bit 16 >> $L 2>&1
echo "test_gpu_16bit rc $?" >> $L
BOX=250 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s56/test_gpu 16 >> $L 2>&1
echo "test_gpu rc $?" >> $L
cat $L
