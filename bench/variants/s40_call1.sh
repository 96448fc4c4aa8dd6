# Session 40, call 1 (~6 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40a.tar.xz
# holds base/trimm (0cb310f), tb/trimm (base + s40_block_trace.patch), ta/trimm (tb +
# s40_alt_ranks.patch), alt/trimm and alt/test_gpu_16bit (0cb310f + s40_alt_ranks.patch).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40a.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/alt/test_gpu_16bit
# 1. alt's correctness first: the pair sizes of the 16-bit suites.
timeout 150 $T --gtest_filter='AllKernels/*sm90_16bit*n3072:AllKernels/*sm90_16bit*n4097:WidePairs/*n5500:WidePairs/*n6144' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED" $OUT/tests.txt | head -20 >> $L
# 2. Per-block stamps of the pair kernel (timings of these runs are meaningless: a sync a call).
for v in tb ta; do for n in 4096 6144; do
  TRIMM_BLOCK_TRACE=1 timeout 60 /tmp/v/$v/trimm bench --sizes $n --dtype bf16 --kernel sm90_16bit --no-anchors 2> /tmp/bt.txt > /dev/null
  echo "trace $v $n rc $?" >> $L
  python3 scripts/block_trace_summary.py /tmp/bt.txt >> $L 2>&1
  gzip -c /tmp/bt.txt > $OUT/bt-$v-$n.txt.gz
done; done
# 3. alt against base, three rounds interleaved. Predict alt −0.5…−2 µs at 4096 (the shorter
# band's two-stage wait on either rank in turn, not on rank 0 each level).
for r in 1 2 3; do for v in base alt; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,5120,6144,8192 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
# 4. alt under the sanitizers (pairs at 4097: a partial last tile).
for tool in memcheck racecheck synccheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' > /tmp/san.txt 2>&1
  echo "$tool rc $?" >> $L; tail -2 /tmp/san.txt >> $L
done
cat $L
