# Session 40, call 9 (~3 min). Carry ["build-carry", ".deps/openblas"]; build-carry/s40i.tar.xz:
# alt/trimm (9861fc6) and hm/trimm + hm/test_gpu_16bit (alt + bench/variants/s40_helper_masks.patch:
# the helper warps mask the structural zeros and release the consumers through a `masked`
# barrier; registers 56 producer/helpers, 224 consumers, against 40/232).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s40i.tar.xz -C /tmp/v
L=$OUT/run.txt
T=/tmp/v/hm/test_gpu_16bit
# Predict: hm −0.3…−1 µs at 4096 (call 3's nm, no masks at all, −1 µs, bounds it).
for r in 1 2; do for v in alt hm; do
  printf "%s %-4s " $r $v >> $L
  timeout 30 /tmp/v/$v/trimm bench --sizes 2560,3072,4096,6144 --dtype bf16 --kernel sm90_16bit --no-anchors > /tmp/b.txt 2>&1
  printf "rc %s  " $? >> $L
  awk '$2=="trimm"{printf "%s %s %s  ", $1, $6, $9}' /tmp/b.txt >> $L; echo >> $L
done; done
timeout 60 $T --gtest_filter='AllKernels/*sm90_16bit*n4097:AllKernels/*sm90_16bit*n2560:AllKernels/*IntegerInputsExact*sm90_16bit*n1*:AllKernels/*IntegerInputsExact*sm90_16bit*n3072' > $OUT/tests.txt 2>&1
echo "tests rc $?" >> $L; grep -c "OK \]" $OUT/tests.txt >> $L; grep -E "FAILED" $OUT/tests.txt | head -5 >> $L
for tool in racecheck synccheck memcheck; do
  timeout 30 compute-sanitizer --tool $tool --error-exitcode 9 $T --gtest_filter='AllKernels/GpuTrtrmm16.PaddedLeadingDimensions/bf16_sm90_16bit_upper_n4097' > /tmp/san.txt 2>&1
  echo "$tool rc $?" >> $L; tail -1 /tmp/san.txt >> $L
done
cat $L
