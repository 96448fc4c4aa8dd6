# Session 57, call 5 (~2 min), meant for an H200: the README's sweep (session57_call1.sh) and
# then the 192×256 probe's rows at 4096 and 8192 beside the landed kernel, on the bars' card.
# carry ["build-carry/s57p.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted: the sweep as session 42's H200 table (fp32 4096 0.178-0.181, bf16 0.0481-0.0485);
# the probe's ratios as the H100's (192×256 split 1.4-1.5× M=192 at 4096, ~0.8× at 8192).
bash bench/variants/session57_call1.sh > /dev/null 2>&1
L=$OUT/run.txt
P=/tmp/v/s57p/probe_sm90_bf16_wide192
mkdir -p /tmp/v && tar -xJf build-carry/s57p.tar.xz -C /tmp/v
cat /tmp/v/s57p/COMMIT >> $L
timeout 60 $P --tall --wide192 4096 8192 >> $L 2>&1; echo "probe rc $?" >> $L
timeout 60 /tmp/v/s56/trimm bench --sizes 4096,8192 --dtype bf16 >> $L 2>&1; echo "trimm rc $?" >> $L
cat $L
