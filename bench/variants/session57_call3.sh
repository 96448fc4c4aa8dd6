# Session 57, call 3 (~1-2 min): M=192 mixed plans (the longest 192×256 units as their 192×128
# halves, on blocks of their own: no split, no partial sums) at 4096 and 6144, beside the
# probe's W=128, M=192 and 192×256 split rows and the landed kernel.
# carry ["build-carry/s57p.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Call 2 found the split's dependencies ruin 4096 (192×256 split 0.079 against M=192 0.053);
# at 8192 192×256 ran 0.79× M=192. Predicted (model calibrated on call 2's 8192 rows, bench/NOTES.md
# session 57): 4096 mixed 0.95× M=192 (~50 µs on the H100); 6144 ~0.86× M=192 (~0.136 ms).
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s57p.tar.xz -C /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57p/COMMIT /tmp/v/s56/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
P=/tmp/v/s57p/probe_sm90_bf16_wide192
timeout 150 $P --tall --wide192 --paths 4096 >> $L 2>&1; echo "probe 4096 rc $?" >> $L
timeout 60 /tmp/v/s56/trimm bench --sizes 4096,6144 --dtype bf16 >> $L 2>&1; echo "trimm rc $?" >> $L
timeout 150 $P --tall --wide192 6144 >> $L 2>&1; echo "probe 6144 rc $?" >> $L
timeout 90 $P --tall --wide192 4096 >> $L 2>&1; echo "probe 4096 again rc $?" >> $L
cat $L
