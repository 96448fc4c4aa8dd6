# Session 47, call 6: s48d = s48c (landed 2576b12) with the small kernel's dense mode for every
# dense Detect call (no sm80_16bit dense launch) and the rule to 1280³ (a variant, built in
# /tmp from 2576b12 with dispatch.cpp/.hpp edited, not committed). Question: does the small kernel's dense mode
# (528 blocks of 32x32 at 1024, two turns of k) beat sm80_16bit's dense launch at 640-896 and the
# flags path (0.0203) at 1024-1280? Predicted: 1024 ~0.014-0.015, 1152 ~0.019, 1280 ~0.024 (flags
# 0.0233); 768-896 ~0.011-0.013.
# carry ["build-carry", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s48.tar.xz -C /tmp/v
L=$OUT/run.txt
timeout 240 /tmp/v/s48d/test_gpu_16bit --gtest_filter='*Detect16*' > $OUT/tests16.txt 2>&1
echo "s48d test_gpu_16bit Detect16 rc $?: $(tail -1 $OUT/tests16.txt)" >> $L
grep -E "^\[  FAILED|Failure" -A8 $OUT/tests16.txt | head -40 >> $L
for rep in 1 2; do
  for bin in s48c s48d; do
    echo "== $bin bf16 detect" >> $L
    timeout 120 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --sizes 512,640,768,896,1024,1152,1280 2>&1 |
      grep -E "^[0-9]" | grep -E "trimm|GemmEx" >> $L
    timeout 60 /tmp/v/$bin/trimm bench --dtype bf16 --structure detect --batch 8 --sizes 256,448 2>&1 | grep -E "^[0-9]" | grep trimm >> $L
  done
done
cat $L
