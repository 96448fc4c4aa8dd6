# Session 58, call 1 (~5 min; for an H200, or an H100 for the last two parts): the README's
# anchored sweep at main's head (the wide units from 6144 included), then the wide units against
# main before them (s56) at 6144-12288, then test_gpu whole (not run since the wide units; it
# does not run sm90_16bit, but links the library).
# carry ["build-carry/s57.tar.xz", "build-carry/s56.tar.xz", ".deps/openblas"]
# Predicted on an H200: fp32 4096 0.178-0.181, tf32 ~0.1156, bf16 4096 0.0481-0.0485 (unchanged:
# the wide units start at 6144); bf16 8192 ~0.80-0.85× s56's 0.313-0.318 (H100: 0.80×); every row
# within tolerance; `python3 scripts/readme_table.py` of the four JSON files is the README's table.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib
mkdir -p /tmp/v && tar -xJf build-carry/s57.tar.xz -C /tmp/v && tar -xJf build-carry/s56.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s57/COMMIT >> $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> $L
B=/tmp/v/s57/trimm
S=256,512,1024,2048,4096,8192,16384
timeout 150 $B bench --sizes $S --structure both --workspace --json > $OUT/sweep-fp32.json 2>> $L; echo "fp32 rc $?" >> $L
timeout 90 $B bench --sizes $S --precision tf32 --workspace --json > $OUT/sweep-tf32.json 2>> $L; echo "tf32 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype bf16 --json > $OUT/sweep-bf16.json 2>> $L; echo "bf16 rc $?" >> $L
timeout 90 $B bench --sizes $S --dtype fp16 --json > $OUT/sweep-fp16.json 2>> $L; echo "fp16 rc $?" >> $L
python3 scripts/readme_table.py $OUT/sweep-{fp32,tf32,bf16,fp16}.json >> $L 2>&1
for b in s57 s56; do
  echo "== $b" >> $L
  timeout 60 /tmp/v/$b/trimm bench --dtype bf16 --kernel sm90_16bit \
    --sizes 5120,6144,8192,10240,12288 >> $L 2>&1
done
TRIMM_REQUIRE_GPU=1 BOX=200 TRIMM_TEST_MAX_N=8320 scripts/gpu_shards.sh /tmp/v/s57/test_gpu 16 >> $L 2>&1
echo "test_gpu rc $?" >> $L
cat $L
