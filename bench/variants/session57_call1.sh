# Session 57, call 1 (~4-5 min): the README's anchored sweep at main's head, every precision in
# one call; session56_call5.sh without its probe line (session 56 answered it on an H100).
# `python3 scripts/readme_table.py` of the four JSON files is the README's table.
# carry ["build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted (against session 42's sweep): fp32 4096 0.178-0.181 (sm90_fp16x3, unchanged in
# SASS); tf32 4096 ~0.1156; bf16 4096 0.0481-0.0485 (tall), 8192 0.313-0.318 (tall, 0.3416 in
# session 42); fp16 within 1 % of bf16; 16384 within the 2-7 % spread of session 42's two calls;
# every fp32/bf16/fp16 row within tolerance.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s56/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s56/trimm
S=256,512,1024,2048,4096,8192,16384
timeout 150 $B bench --sizes $S --structure both --workspace --json > $OUT/sweep-fp32.json 2>> $L; echo "fp32 rc $?" >> $L
timeout 90 $B bench --sizes $S --precision tf32 --workspace --json > $OUT/sweep-tf32.json 2>> $L; echo "tf32 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype bf16 --json > $OUT/sweep-bf16.json 2>> $L; echo "bf16 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype fp16 --json > $OUT/sweep-fp16.json 2>> $L; echo "fp16 rc $?" >> $L
python3 scripts/readme_table.py $OUT/sweep-{fp32,tf32,bf16,fp16}.json >> $L 2>&1
cat $L
