# Session 45, call 2 (~4 min): the 16-bit gate test rewritten for the epoch (call 1: its
# "every flag" word 0xFFFFFFFF read as another epoch's), the Detect16 suites, racecheck and
# synccheck on the small kernel's Detect path; then probe_sm90_ingest_rate (which path caps an
# SM's intake: TMA 2D boxes, 1D bulk, cp.async, or both at once).
# build-carry/s45b.tar.xz: test_gpu_16bit (the test fix) and the probe; trimm from s45a.
# Predicted: the probe's tma2d at ~33 B a cycle a SM (sessions 43-44); bulk as fast if the port
# is the cap, faster if the box walk is; a combined mode above both parts only if the path caps.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s45b.tar.xz -C /tmp/v
V=/tmp/v/s45b
L=$OUT/run.txt
timeout 60 $V/probe_sm90_ingest_rate > $OUT/probe.txt 2>&1
echo "probe rc $?" >> $L
cat $OUT/probe.txt >> $L
timeout 200 $V/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests.txt 2>&1
echo "test_gpu_16bit Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A3 $OUT/tests.txt | head -12 >> $L
for tool in racecheck synccheck; do
  TRIMM_TEST_MAX_N=300 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $V/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.*' > $OUT/san.txt 2>&1
  echo "16-bit $tool rc $?: $(grep -E 'SUMMARY|PASSED' $OUT/san.txt | tr '\n' ' ')" >> $L
done
cat $L
