#!/usr/bin/env bash
# Session 15, call 5 (kept for the record): bench/variants/session15_call5.txt, then the base
# tree's auto choice against GemmEx + triu at the same sizes.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sizes=576,640,704,768,832,896,960,1024
VARIANTS=bench/variants/session15_call5.txt VAR_SIZES=$sizes \
  VAR_RUNS="--dtype bf16 --kernel sm80_16bit_small; --dtype fp16 --kernel sm80_16bit_small" \
  "$root/scripts/device-variants.sh"
export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
for _ in 1 2; do
  /tmp/trimm-variants/build-base/tools/cli/trimm bench --dtype bf16 --sizes $sizes
done 2>&1 | tee "$OUT/anchors.txt"
