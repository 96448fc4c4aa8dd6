#!/usr/bin/env bash
# scripts/gpu_shards.sh's verdict: a gtest binary that passes gives exit 0 and "ended yes" in
# every shard; one that aborts after its first case gives exit 1 and "ended NO".
#   check_gpu_shards.sh GPU_SHARDS_SH PASSING_GTEST_BINARY
set -u
shards=$1 passing=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
out=$(OUT=$work BOX=120 bash "$shards" "$passing" 3 2>&1) || fail "a passing binary gave exit 1: $out"
[ "$(grep -c 'ended yes' <<< "$out")" = 3 ] || fail "three shards should end: $out"
[ -s "$work/$(basename "$passing")-shards.tgz" ] || fail "no shard logs"
printf '#!/bin/sh\necho "[ RUN      ] Suite.Case"\nkill -ABRT $$\n' > "$work/aborts"
chmod +x "$work/aborts"
out=$(OUT=$work bash "$shards" "$work/aborts" 2 2>&1) && fail "an aborting binary gave exit 0: $out"
grep -q 'ended NO' <<< "$out" || fail "an aborted shard should say so: $out"
echo "gpu_shards verdicts ok"
