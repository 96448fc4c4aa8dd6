# Session 57, call 2 (~2-3 min): the probe's 192×256 units (three consumer warpgroups, two
# m64n128k16 a k16 each, 3 slots of 56 KB, long bands split in two) against its W=128 and M=192
# skeletons in the same run, each path alone too; the landed kernel as the anchor.
# carry ["build-carry/s57p.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted at 4096 (model: bench/NOTES.md session 57): busiest block 31 µs of tensor work,
# 1.93 MB of loads (33 µs at ~35 B a cycle); M=192 W=256 split no loads 40-45 µs, no wgmma
# 36-40, together 44-50 against the probe's W=128 ~52-54 and M=192 ~50-52 (0.85-0.95×).
# A lead only if together ≤ 0.85× the same run's W=128 (the landed kernel is ~5 µs under the
# probe's W=128). 6144 and 8192: 0.8-0.9× W=128.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s57p.tar.xz -C /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57p/COMMIT /tmp/v/s56/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
P=/tmp/v/s57p/probe_sm90_bf16_wide192
timeout 120 $P --tall --wide192 --paths 4096 >> $L 2>&1; echo "probe 4096 rc $?" >> $L
timeout 60 $P --tall --wide192 --split 16,20,24,28,32 4096 >> $L 2>&1; echo "probe split rc $?" >> $L
timeout 60 /tmp/v/s56/trimm bench --sizes 4096,6144,8192 --dtype bf16 >> $L 2>&1; echo "trimm rc $?" >> $L
timeout 120 $P --tall --wide192 6144 8192 >> $L 2>&1; echo "probe 6144/8192 rc $?" >> $L
timeout 60 $P --tall --wide192 4096 >> $L 2>&1; echo "probe 4096 again rc $?" >> $L
cat $L
