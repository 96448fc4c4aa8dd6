# Prepared in session 51 for the next device session (~4-6 min, every run time-boxed).
# carry ["build-carry/s51t.tar.xz", "build-carry/s51.tar.xz", ".deps/openblas"]
# build-carry/s51t.tar.xz: test_gpu, test_gpu_16bit and trimm of 1a60f44 (its COMMIT), built on
# the CPU machine.
# First, the tests session 51 added (never run): GpuDetect at n = 4097
# (f42bde7; 10 cases, six kernel runs each; the fp64 dense reference takes seconds a case) and
# GpuDetect16Pinned.UnforcedPastTheDenseRule (736b5f6; 16-bit Detect unforced at 2304, the flags
# path just past the one-dense-launch rule). Predicted: all pass.
# Then --warm-l2 with the head start (232b7c8: an idle kernel before each timed run, as the
# flush's memset gives the protocol's runs), against session 51's binary (build-carry/s51.tar.xz,
# no head start). Since session 39 warm runs were slower than flushed ones by a near-constant
# ~5 µs at every n (0.0237/0.0609/0.3381 against 0.0190/0.0557/0.3334 at 2048/4096/8192) and
# GemmEx + triu by ~16: the host's launch latency timed on an idle GPU, I think.
# Predicted: the new binary's warm rows at or below its flushed ones (4096 bf16 ~0.046-0.049
# against ~0.049), the old binary's ~5-7 µs above; if the new warm rows are still above the
# flushed ones, the cause is not host latency.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1 TRIMM_TEST_MAX_N=8200
mkdir -p /tmp/v && for b in s51t s51; do tar -xJf build-carry/$b.tar.xz -C /tmp/v; done
T=/tmp/v/s51t/test_gpu L=$OUT/run.txt
cat /tmp/v/s51t/COMMIT >> $L
timeout 240 $T --gtest_filter='Inputs/GpuDetect.*n4097' > $OUT/detect4097.txt 2>&1
echo "GpuDetect 4097 rc $?" >> $L; grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" $OUT/detect4097.txt >> $L
timeout 120 /tmp/v/s51t/test_gpu_16bit --gtest_filter='*UnforcedPastTheDenseRule*' \
  > $OUT/detect16_2304.txt 2>&1
echo "UnforcedPastTheDenseRule rc $?" >> $L
grep -E "^\[  PASSED|^\[  FAILED|SKIPPED \]" $OUT/detect16_2304.txt >> $L
for round in 1 2; do
  for bin in /tmp/v/s51t/trimm /tmp/v/s51/trimm; do
    for mode in "" --warm-l2; do
      echo "== $bin ${mode:-flushed}, round $round" >> $L
      timeout 60 $bin bench --dtype bf16 --kernel sm90_16bit --sizes 2048,4096,8192 $mode \
        > $OUT/last.txt 2>&1
      echo "rc $?" >> $L; grep -E "trimm sm|GemmEx|rror|FAIL" $OUT/last.txt >> $L
    done
  done
done
cat $L
