# Prepared in session 53 for the next device session, after session54_call1.sh (~4-7 min, boxed).
# carry ["build-carry/s54.tar.xz", ".deps/openblas"]
# test_gpu_16bit whole in 16 gtest shards, every size (TRIMM_TEST_MAX_N=8320): session 52 ran its
# cases up to 4097 (2929 passed at f1b936b); the 210 past it (5500-8320: the pairs' layout, the
# bands, the split past the table) have not run since session 51's code. Session 53's host changes
# reach sm90_16bit's pair layout (now a copy) and its orders.
# With session 54's GpuTrtrmm16Dispatch.CallsCaptureInGlobalModeAtANewSize (seven 16-bit calls
# captured in global mode at a new n; a failure names the call and CUDA's error).
# Predicted: every case passes; wall ~150-300 s (the fp64 references at 8192 dominate).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s54.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s54/COMMIT >> $L
BOX=420 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s54/test_gpu_16bit 16 >> $L 2>&1
echo "test_gpu_16bit rc $?" >> $L
cat $L
