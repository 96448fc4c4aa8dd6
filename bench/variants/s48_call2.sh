# Session 47, call 4: s48c = s48b with the small kernel's own dense mode (sm80_16bit_small: every
# k, no masks, Path::Dense) where dispatch takes that kernel (n <= 640 for one problem on sm_90),
# sm80_16bit's dense launch from there to kDenseDetect16N = 896 (call 3: sm80_16bit's dense
# launch lost from 1024 on, 0.0227 against 0.0203). Predicted: s48c 64 ~0.005-0.006 (s48b
# 0.0082), 512 ~0.009 (s48b 0.0104), 640 ~0.010; 768-896 as s48b; 1024 as s48a.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 240 /tmp/v/s48c/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48c test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
S=64,128,256,384,512,640,768,896,1024
for rep in 1 2; do
  for bin in s48a s48b s48c; do
    echo "== $bin bf16 detect" >> $L
    timeout 120 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --sizes $S 2>&1 |
      grep -E "^[0-9]" | grep -E "trimm|GemmEx" >> $L
  done
done
for bin in s48a s48c; do
  echo "== $bin fp16 detect; bf16 batch 8 detect; bf16 noisy detect" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype fp16 --structure detect --sizes 256,512,896 2>&1 | grep -E "^[0-9]" | grep trimm >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --batch 8 --sizes 128,256,448 2>&1 | grep -E "^[0-9]" >> $L
  timeout 60 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --noisy --sizes 256,512,896 2>&1 | grep -E "^[0-9]" | grep trimm >> $L
done
TRIMM_TEST_MAX_N=300 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 \
  /tmp/v/s48c/test_gpu_16bit --gtest_filter='GpuDetect16Pinned.OneValue*:Inputs/GpuDetect16.*n129:Inputs/GpuDetect16.*n64' > $OUT/memcheck.txt 2>&1
echo "memcheck rc $?: $(grep 'ERROR SUMMARY' $OUT/memcheck.txt | tail -1)" >> $L
TRIMM_TEST_MAX_N=300 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 \
  /tmp/v/s48c/test_gpu_16bit --gtest_filter='Inputs/GpuDetect16.Noisy*n129:Inputs/GpuDetect16.NonFinite*n64' > $OUT/racecheck.txt 2>&1
echo "racecheck rc $?: $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $OUT/racecheck.txt | tail -1)" >> $L
cat $L
