# Session 56, call 6: session56_call5.sh reordered for a short budget (~370 s left after five
# refusals): the probe's clocks first, then the sweeps shortest first (their JSON comes back
# whatever is cut). Predictions as in session56_call5.sh.
# carry ["build-carry/s56.tar.xz", ".deps/openblas"]
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s56/COMMIT >> $L
timeout 60 /tmp/v/s56/probe_sm90_bf16_wide --pairs --paths 4096 >> $L 2>&1; echo "probe rc $?" >> $L
B=/tmp/v/s56/trimm
S=256,512,1024,2048,4096,8192,16384
timeout 60 $B bench --sizes $S --dtype bf16 --json > $OUT/sweep-bf16.json 2>> $L; echo "bf16 rc $?" >> $L
timeout 60 $B bench --sizes $S --dtype fp16 --json > $OUT/sweep-fp16.json 2>> $L; echo "fp16 rc $?" >> $L
timeout 60 $B bench --sizes $S --precision tf32 --workspace --json > $OUT/sweep-tf32.json 2>> $L; echo "tf32 rc $?" >> $L
timeout 120 $B bench --sizes $S --structure both --workspace --json > $OUT/sweep-fp32.json 2>> $L; echo "fp32 rc $?" >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
cat $L
