# Prepared in session 52 for the next device session (~5-7 min, every shard boxed).
# carry ["build-carry/s52v.tar.xz", ".deps/openblas"]
# build-carry/s52v.tar.xz: test_gpu, test_gpu_16bit and trimm of 7c029a4 (COMMIT), built on the
# CPU machine.
# What session 52 left unrun (bench/RESULTS.md, session 52, calls 3-6):
# 1. test_gpu_16bit past n = 4097 (210 cases at 5500, 5889, 6144, 8192, 8193, 8320: the pairs'
#    queue, the bands, the split past the table); its cases up to 4097 passed at f1b936b (2909).
# 2. test_gpu's three fixed-size tests above 2048 that call 4's MAX_N = 2048 set skipped:
#    GpuDetectPinned.BandedTriangularIntegersExact (5896; never run in session 52), and
#    GpuTrtrmmDispatch.AutoTakesSm90Fp16x3GivenItsWorkspace, ...UnderDetectGivenItsWorkspace
#    (3072; passed in call 3 at f1b936b, again here at this binary: seconds).
# Predicted: all pass; 1 takes ~2-4 min on 16 cores (8192's fp64 references, 16 rows a block).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
mkdir -p /tmp/v && tar -xJf build-carry/s52v.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s52v/COMMIT >> $L
BOX=300 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s52v/test_gpu_16bit 16 \
  '*n5500*:*n5889*:*n6144*:*n8192*:*n8193*:*n8320*' >> $L 2>&1
echo "rc $?" >> $L
BOX=200 scripts/gpu_shards.sh /tmp/v/s52v/test_gpu 3 \
  'GpuTrtrmmDispatch.AutoTakesSm90Fp16x3*:GpuDetectPinned.BandedTriangularIntegersExact' >> $L 2>&1
echo "rc $?" >> $L
cat $L
