# Session 39, call 5 (~4 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s39e.tar.xz
# holds fin2/trimm and fin2/test_gpu_16bit (kSm90Bf16PairMinN = 3072 and the test sizes 2560,
# 3072 in place of 3072, 3584: the tree committed after it) and fin/trimm (call 4's, pairs from
# 3584). Logs: run.txt (tests, sanitizers, bench) and the sweep's JSON, few files (the device
# tool returns about eight).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s39e.tar.xz -C /tmp/v
T=/tmp/v/fin2/test_gpu_16bit L=$OUT/run.txt
# 1. The new test sizes on every kernel (2560: sm90_16bit's unpaired persistent blocks; 3072: its
# pairs), and the sanitizers on the pairs at the new threshold.
timeout 200 $T --gtest_filter='AllKernels/*n2560:AllKernels/*n3072' > /tmp/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED|SKIPPED \] [0-9]" /tmp/tests.txt >> $L
grep -c "OK \]" /tmp/tests.txt >> $L
for tool in memcheck racecheck synccheck; do echo "## $tool" >> $L
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.UniformInputsWithinBound/bf16_sm90_16bit_lower_n3072' > /tmp/san.txt 2>&1; echo "rc $?" >> $L
  grep SUMMARY /tmp/san.txt >> $L; done
# 2. Unforced, three rounds. Predict: fin2 = call 4's pm at 3072-3328, = fin at 2560 and 4096.
for r in 1 2 3; do for v in fin fin2; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 2560,3072,3328,4096 --dtype bf16 --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s %s  ", $1, $6, $9, $3}' /tmp/b.txt >> $L; echo >> $L
done; done
cat $L
# 3. The 16-bit sweep of the committed tree with its anchors (GemmEx in the type + triu).
for d in bf16 fp16; do
  timeout 120 /tmp/v/fin2/trimm bench --sizes 256,512,1024,2048,3072,4096,6144,8192,16384 --dtype $d --json > $OUT/sweep-$d.json 2> /tmp/err.txt
  echo "sweep $d rc $?" >> $L; tail -2 /tmp/err.txt >> $L
done
tail -3 $L
