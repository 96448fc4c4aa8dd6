# Session 40, call 2 (~5 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40b.tar.xz
# holds alt/trimm (9861fc6's kernels), rd/trimm + rd/test_gpu_16bit (alt + s40_wait_read.patch:
# the kernel's last wait for its TMA stores' reads only, not their writes), and the byte probes
# pb1/pb2/pb3 (alt + s40_probe_b.patch with TRIMM_PROBE_B 1, 2, 3: each pair block loads one of
# B's two boxes, none of B, nothing; their results are wrong by design).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40b.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/rd/test_gpu_16bit
timeout 120 $T --gtest_filter='AllKernels/*sm90_16bit*n4097:AllKernels/*sm90_16bit*n2560:AllKernels/*IntegerInputsExact*sm90_16bit*:AllKernels/*sm90_16bit*n1000' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -E "PASSED|FAILED" $OUT/tests.txt | head -20 >> $L; grep -c "OK \]" $OUT/tests.txt >> $L
# Predict: rd −0.3…−1 µs against alt at every size. pb1 (16 KB of L2 reads a block-stage against
# 24): 0.040–0.044 at 4096 if L2 bytes bind the stage, ~0.047 if not; pb2 below it; pb3 the
# floor without loads (~0.036).
for r in 1 2 3; do for v in alt rd pb1 pb2 pb3; do
  printf "%s %-4s " $r $v >> $L
  timeout 60 /tmp/v/$v/trimm bench --sizes 3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
for t in 'AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' 'AllKernels/GpuTrtrmm16.IntegerInputsExact/bf16_sm90_16bit_lower_n2560'; do
  for tool in memcheck racecheck synccheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter="$t" > /tmp/san.txt 2>&1
    echo "$tool $t rc $?" >> $L; tail -1 /tmp/san.txt >> $L
  done
done
cat $L
