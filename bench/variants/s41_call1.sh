# Session 41, call 1 (~4 min), prepared in session 40. Carry ["build-carry", ".deps/openblas"];
# build-carry/s41a.tar.xz: alt/trimm (9861fc6's kernels) and hm3/trimm + hm3/test_gpu_16bit
# (alt + bench/variants/s40_helper_masks_v3.patch: session 40's helper-warp masks, fixed: the
# producer hands the helpers a ticket on `to_mask` for each stage to mask, so that `full`'s parity
# names the right lap; the consumers wait on `full` and then `masked`; __syncwarp() before the
# helpers' bar.sync), and hm3b/trimm + hm3b/test_gpu_16bit
# (bench/variants/s40_helper_masks_v3b.patch: v3 with each unit's mirror zeroed after the next
# unit's first two stages, not between the units' masked stages). If build-carry/ is gone:
# apply a patch to 9861fc6's tree (git apply), build trimm_cli and test_gpu_16bit (Release,
# sm_90a), strip, and pack as below.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s41a.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/hm3/test_gpu_16bit
# Correctness first, each under a short limit (v1 hung: its helpers, skipping the stages they do
# not mask, waited on `full` laps early): synccheck's whole report, then tests.
timeout 40 compute-sanitizer --tool synccheck --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.IntegerInputsExact/fp16_sm90_16bit_upper_n2560' > $OUT/synccheck.txt 2>&1
echo "synccheck rc $?" >> $L; grep -m5 -E "Barrier|error|ERROR SUMMARY" $OUT/synccheck.txt >> $L
timeout 90 $T --gtest_filter='AllKernels/*sm90_16bit*n2560:AllKernels/*sm90_16bit*n4097:AllKernels/*IntegerInputsExact*sm90_16bit*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
timeout 40 /tmp/v/hm3b/test_gpu_16bit --gtest_filter='AllKernels/*IntegerInputsExact*sm90_16bit*' > /tmp/t3b.txt 2>&1
echo "hm3b tests rc $?" >> $L; grep -c "OK \]" /tmp/t3b.txt >> $L; grep -m5 "FAILED" /tmp/t3b.txt >> $L
for tool in racecheck memcheck; do
  timeout 40 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' > /tmp/san.txt 2>&1
  echo "$tool rc $?" >> $L; tail -1 /tmp/san.txt >> $L
done
# Predict: hm3 −0.3…−1 µs at 4096 against alt, hm3b at or below hm3 (call 3's nm, no masks at
# all, −1 µs, bounds it); a loss is possible where the masked stages' data arrives just in time
# (96 threads mask).
for r in 1 2 3; do for v in alt hm3 hm3b; do
  printf "%s %-4s " $r $v >> $L
  timeout 30 /tmp/v/$v/trimm bench --sizes 2560,3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
