# Session 60: calls 1 and 2 in one `run` (the device refused seven starts this session; one held
# machine is worth more than two). Call 1 whole, then call 2 (its timings first, its knob tests
# last) cut at 570 s of the 600-s limit: a tile knob lands only if its tests finished.
# carry ["build-carry/s60.tar.xz", ".deps/openblas"]
bash bench/variants/session60_call1.sh > /dev/null
left=$((570 - SECONDS)); timeout $((left > 1 ? left : 1)) bash bench/variants/session60_call2.sh > /dev/null
echo "call 2 rc $? at ${SECONDS} s" >> $OUT/run2.txt
tail -c 5000 $OUT/run.txt; tail -c 5000 $OUT/run2.txt
