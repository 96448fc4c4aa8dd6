#!/usr/bin/env bash
# One GPU test binary in gtest shards, all at once (each shard one process: the large cases'
# time is their CPU fp64 references, so the machine's cores are the lever; on the H200's 16 cores
# test_gpu up to n = 4097 took 84 s this way in session 52, where filters left a fixture's
# regression unseen for two sessions).
#   scripts/gpu_shards.sh BINARY SHARDS [GTEST_FILTER]
# Each shard is boxed at BOX seconds (default 300). TRIMM_TEST_MAX_N and TRIMM_REQUIRE_GPU pass
# through. Prints one line a shard (run, ok, failed, skipped, and whether gtest reached its end:
# a shard cut by its box or aborted did not), the failed cases, and the skip reasons counted
# (numbers as N); the shards' logs go to $OUT/<binary>-shards.tgz, one file. Exit status 1 where
# a case failed or a shard did not end.
set -uo pipefail
bin=$1 shards=$2 filter=${3:-*}
out=${OUT:-.}
name=$(basename "$bin")
logs=$(mktemp -d)
start=$(date +%s)
for ((i = 0; i < shards; ++i)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i timeout "${BOX:-300}" "$bin" \
    --gtest_filter="$filter" > "$logs/$name.$i.txt" 2>&1 &
done
wait
echo "$name, filter $filter, $shards shards, TRIMM_TEST_MAX_N=${TRIMM_TEST_MAX_N:-none}:" \
     "wall $(( $(date +%s) - start )) s"
count() { grep -c "$1" "$2"; }
status=0
for ((i = 0; i < shards; ++i)); do
  f=$logs/$name.$i.txt
  run=$(count '^\[ RUN' "$f") ok=$(count '^\[       OK' "$f")
  failed=$(count '^\[  FAILED  \] .*ms)' "$f") skipped=$(count '^\[  SKIPPED \] .*ms)' "$f")
  ended=yes
  grep -q '^\[==========\] .* ran\.' "$f" || ended="NO (cut by its box or aborted)"
  echo "  shard $i: run $run ok $ok failed $failed skipped $skipped, ended $ended" \
       "$(grep -E '^\[  PASSED|FATAL' "$f" | tr '\n' ' ')"
  [[ $failed -gt 0 || $ended != yes ]] && status=1
done
grep -h '^\[  FAILED  \] .*ms)' "$logs"/*.txt | head -40
echo "  skip reasons (numbers as N):"
grep -h -B3 '^\[  SKIPPED \] .*ms)' "$logs"/*.txt | grep -v '^\[\|^--\|^$\|: Skipped$' |
  sed 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -20
tar -czf "$out/$name-shards.tgz" -C "$logs" . && rm -rf "$logs"
exit $status
