# Session 60: calls 1 and 2 in one `run` (the device refused seven starts this session; one held
# machine is worth more than two). Call 1 whole, then call 2's timings, then call 2's knob tests
# in whatever time is left under the 600-s limit (a tile knob lands only if its tests finished).
# carry ["build-carry/s60.tar.xz", ".deps/openblas"]
bash bench/variants/session60_call1.sh > /dev/null
C2=bench/variants/session60_call2.sh
sed -n '/^export/,/^cat \$L/p' $C2 | awk '/^echo "== test_gpu_z/{t=1} /^echo "== trimm_z/{t=0} !t' \
  > /tmp/call2_bench.sh
{ sed -n '/^export/,/^B=/p' $C2 | grep -v '^mkdir'; sed -n '/^echo "== test_gpu_z/,/^echo "tests rc/p' $C2; } \
  > /tmp/call2_tests.sh
bash /tmp/call2_bench.sh > /dev/null
L=$OUT/run2.txt
echo "== call 2's knob tests, $((570 - SECONDS)) s left" >> $L
timeout $((570 - SECONDS)) bash /tmp/call2_tests.sh
echo "knob tests rc $? at ${SECONDS} s" >> $L
tail -c 5000 $OUT/run.txt; tail -c 5000 $L
