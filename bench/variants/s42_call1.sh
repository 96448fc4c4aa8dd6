# Session 42, call 1 (~4 min), prepared in session 41. Carry ["build-carry", ".deps/openblas"];
# build-carry/s42a.tar.xz: base/trimm (main at 81fc895: a pair's B loads from warp 9),
# su/trimm + su/test_gpu_16bit (base + bench/variants/s42_split_unpaired.patch: the unsplit
# persistent kernel's loads split the same way, A's from the producer, B's from warp 9; the
# mirrors zeroed by warps 10-11), and pt/trimm (base + bench/variants/s42_producer_trace.patch:
# clocks of both producer threads and consumer thread 0 at every pair stage, one launch in 50;
# its times mean nothing; read with scripts/producer_trace_summary.py). If build-carry/ is gone: apply the patch to main's tree, build
# trimm_cli and test_gpu_16bit (Release, sm_90a), strip, and pack as in session 41.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s42a.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/su/test_gpu_16bit
# Correctness first: the unsplit persistent kernel runs below 3072 and past 8192 (bands).
for f in bf16_sm90_16bit_upper_n2560 fp16_sm90_16bit_lower_n1025; do
  timeout 50 compute-sanitizer --tool synccheck --error-exitcode 9 $T --gtest_filter="AllKernels/GpuTrtrmm16.IntegerInputsExact/$f" > /tmp/san.txt 2>&1
  echo "synccheck $f rc $?" >> $L; grep -m1 "ERROR SUMMARY" /tmp/san.txt >> $L
  for tool in racecheck memcheck; do
    timeout 50 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/$f" > /tmp/san.txt 2>&1
    echo "$tool $f rc $?" >> $L; tail -1 /tmp/san.txt >> $L
  done
done
timeout 150 $T --gtest_filter='AllKernels/*sm90_16bit*:BandedSm90*/*:GpuTrtrmm16Selected.*:GpuTrtrmm16BigBatch.*:Sizes/*' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -m5 "FAILED" $OUT/tests.txt >> $L
# Predict: su −0.5…−1 % where the unsplit kernel runs (2048, 2560, 9216, 12288), ±0 at 4096
# (pairs, unchanged).
for r in 1 2 3; do for v in base su; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 2048,2560,4096,9216,12288 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
# The producer trace at 4096 and 6144 (raw, gzipped; summarize here).
timeout 60 /tmp/v/pt/trimm bench --sizes 4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/pt.txt 2>&1
echo "pt rc $? lines $(grep -c '^PT ' /tmp/pt.txt)" >> $L
grep '^PT ' /tmp/pt.txt | gzip -9 > $OUT/pt.txt.gz
cat $L
