# Session 47, call 3 (prepared while the device tool said no machine was lent; ran once it was).
# bench/variants/s48_dense_detect16.patch: 16-bit Structure::Detect on small work (batch · n³ up
# to 1280³), dispatch's choice on sm_90, is one launch of sm80_16bit's dense mode (every k of
# the operands as they are, ungated, the flag word untouched) instead of the structured kernel,
# its scan or flags, and gated launches. Session 21 found the tensor cores' NaN/Inf the dense
# product's (48/48 scratch cases); GpuDetect16's non-finite inputs now check it on that path.
# Binaries: build-carry/s48.tar.xz (s48a = main 55e7b30's trimm and test_gpu_16bit, s48b = with
# the patch), built in session 47; if it did not survive, run `bash bench/variants/s48_prep.sh`
# here first. carry ["build-carry", ".deps/openblas"] (.deps: scripts/device-deps.sh).
# Predicted: bf16 Detect 512 0.0115 -> ~0.006-0.007, 768 0.0176 -> ~0.009, 1024 0.0204 ->
# ~0.010-0.012 (GemmEx + triu 0.0137: ~1.2x), 1280 ~0.018; the crossover with the scan path
# near 1300-1500 (sm80_16bit's dense rate ~200 TFLOP/s at 4096, noisy inputs). Set
# kDenseDetect16N from the table, then land with the README's 16-bit Detect paragraph.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 240 /tmp/v/s48b/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48b test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
S=64,256,512,640,768,896,1024,1152,1280,1408,1536,1792,2048
for rep in 1 2; do
  for bin in s48a s48b; do
    echo "== $bin bf16 detect" >> $L
    timeout 120 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --sizes $S 2>&1 |
      grep -E "^[0-9]" | grep -E "trimm|GemmEx" >> $L
  done
done
for bin in s48a s48b; do
  echo "== $bin fp16 detect; bf16 batch 8 detect" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype fp16 --structure detect --sizes 512,1024 2>&1 | grep -E "^[0-9]" | grep trimm >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --batch 8 --sizes 256,512,640 2>&1 | grep -E "^[0-9]" >> $L
done
TRIMM_TEST_MAX_N=300 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 \
  /tmp/v/s48b/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.OneValue*:Inputs/GpuDetect16.*n129' > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1)" >> $L
cat $L
