# Session 52, call 3 (~9 min, every process boxed at BOX = 520 s). carry ["build-carry/s52t.tar.xz",
# ".deps/openblas"]
# build-carry/s52t.tar.xz: test_gpu, test_gpu_16bit and trimm of f1b936b (COMMIT), built on the
# CPU machine: the fp64 reference in blocks of 16 rows (2x at n = 4097 on the CPU machine), and
# session 51's second-read mends (dispatch's named()/unknown_kernel, the CPU's options checked
# once, test::device_info), which no GPU has run.
# Both GPU suites whole (2058 + 3395 cases), sharded by gtest into 16 processes at once (16
# cores; the large cases' time is the CPU's fp64 references), GpuDetect at 4097 among them (call
# 1 ran 3 of its 10 cases in 240 s, 44-102 s each).
# Predicted: every case that finishes passes, nothing prints SKIPPED (TRIMM_REQUIRE_GPU); the
# shards finish in ~300-500 s. A shard cut by its box reports the tests it never reached: those
# are not passes.
export LD_LIBRARY_PATH=$PWD/.deps/openblas/lib TRIMM_REQUIRE_GPU=1
# MAX_N (optional): TRIMM_TEST_MAX_N, to leave out the cases past it (they print SKIPPED with the
# reason, counted below) where the device time left cannot hold their CPU references.
[ -n "${MAX_N:-}" ] && export TRIMM_TEST_MAX_N=$MAX_N
mkdir -p /tmp/v && tar -xJf build-carry/s52t.tar.xz -C /tmp/v
L=$OUT/run.txt
cat /tmp/v/s52t/COMMIT >> $L
start=$(date +%s)
shards() {  # binary, shard count
  for ((i = 0; i < $2; ++i)); do
    GTEST_TOTAL_SHARDS=$2 GTEST_SHARD_INDEX=$i timeout ${BOX:-520} /tmp/v/s52t/$1 \
      > $OUT/$1.shard$i.txt 2>&1 &
  done
}
shards test_gpu 8
shards test_gpu_16bit 8
wait
echo "wall $(( $(date +%s) - start )) s" >> $L
for f in $OUT/*.shard*.txt; do
  echo "$(basename $f): run $(grep -c '^\[ RUN' $f) ok $(grep -c '^\[       OK' $f)" \
       "failed $(grep -c '^\[  FAILED  \] .*ms)' $f) skipped $(grep -c '^\[  SKIPPED \] .*ms)' $f)" \
       "$(grep -E '^\[  PASSED|^\[==========\] .*ran' $f | tr '\n' ' ')" >> $L
done
grep -h '^\[  FAILED  \] .*ms)' $OUT/*.shard*.txt | head -40 >> $L
echo "skip reasons (numbers as N):" >> $L
grep -h -B3 '^\[  SKIPPED \] .*ms)' $OUT/*.shard*.txt | grep -v '^\[\|^--\|^$\|: Skipped$' |
  sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -20 >> $L
cat $L
