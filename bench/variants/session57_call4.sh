# Session 57, call 4 (~2 min): how far up 192×256 units keep winning: the probe's rows at 10240
# and 12288 beside the landed kernel (square bands there from 8448).
# carry ["build-carry/s57p.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted: 192×256 0.75-0.85× M=192 and 0.8-0.9× the landed kernel at both sizes.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s57p.tar.xz -C /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57p/COMMIT >> $L
nvidia-smi --query-gpu=name --format=csv >> $L
timeout 60 /tmp/v/s56/trimm bench --sizes 8192,10240,12288 --dtype bf16 >> $L 2>&1; echo "trimm rc $?" >> $L
timeout 200 /tmp/v/s57p/probe_sm90_bf16_wide192 --tall --wide192 10240 12288 >> $L 2>&1; echo "probe rc $?" >> $L
cat $L
