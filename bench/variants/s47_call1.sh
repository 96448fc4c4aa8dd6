# Prepared in session 46, not run (device time spent): fp32 Detect at 3072 lost 3-5 µs when
# sm90_fp16x3's scan moved into its helper warps (01610e8). Does the scan's start matter? s47b
# runs bench/variants/s47_scan_first.patch (the helper warps scan before their mirror tiles,
# instead of after); s47a is main (ed40e75). build-carry/s47ab.tar.xz holds both trimm
# binaries, built here (if it did not survive: s47a = main's trimm_cli, s47b = with the patch).
# carry ["build-carry", ".deps/openblas"]. Then ncu's product durations at 3072 (Triangular
# against Detect) on s47a: how much of the loss is inside the product.
# Predicted: scan first −1…−3 µs at 3072 if the scan's tail ran past the lighter blocks' product
# (2-3 units a block at 3072), nothing at 4096; the product under Detect +10…+13 µs at 3072.
# First, what session 46 landed after its last device call, never run on a GPU (s47a: trimm,
# test_gpu, test_gpu_16bit built from ed40e75): GpuDetect16Pinned.Sm90PairsFlagTheirOutputs
# (sm90_16bit's pairs under Detect at 3072: no flag, kNonFiniteOut, kOutsideB | kNonFiniteDense; C
# the dense product's), and 15f21c8 (sm80_16bit's dense launch flags with one atomic, the scan
# having tagged the word): every 16-bit Detect suite and test_gpu's Detect suites. Predicted: pass.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s47ab.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 200 /tmp/v/s47a/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -30 >> $L
timeout 150 /tmp/v/s47a/test_gpu --gtest_filter='Inputs/GpuDetect.*:GpuDetectPinned.*:GpuLostElementsDetect.*' > $OUT/tests.txt 2>&1
echo "test_gpu Detect rc $?: $(tail -1 $OUT/tests.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests.txt | head -30 >> $L
for bin in s47a s47b s47a s47b; do
  echo "== $bin" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --sizes 3072,4096 --kernel sm90_fp16x3 --structure both --no-anchors 2>&1 | grep -E "^[0-9]" | grep -v reference >> $L
done
echo "== ncu s47a 3072" >> $L
timeout 100 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum \
  /tmp/v/s47a/trimm bench --sizes 3072 --kernel sm90_fp16x3 --structure both --no-anchors --runs 2 --warmup 1 2>&1 |
  grep -E "^  [a-zA-Z_].*\(|gpu__time_duration" | paste - - | grep -v "cli::\|naive\|xmma" | awk '{print $1, $2, $3, $NF}' | head -40 >> $L
true
# Added in session 47: memcheck on the pinned Detect tests (sm90_16bit's pairs among them).
for t in "test_gpu_16bit GpuDetect16Pinned.*" "test_gpu GpuDetectPinned.*"; do
  set -- $t
  TRIMM_TEST_MAX_N=300 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 \
    /tmp/v/s47a/$1 --gtest_filter="$2" > $OUT/memcheck-$1.txt 2>&1
  echo "memcheck $1 $2 rc $?: $(grep -E 'ERROR SUMMARY' $OUT/memcheck-$1.txt | tail -1)" >> $L
done
cat $L
