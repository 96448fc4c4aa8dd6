#!/usr/bin/env bash
# Session 15, call 1 (kept for the record): the prepared variants, then the batch rule and the
# anchors at 512-1024 with the base tree's CLI.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
VARIANTS=bench/variants/session15_call1.txt VAR_SIZES=256,384,511,512,513,576,640,768,896,1023,1024 \
  VAR_RUNS="--dtype bf16; --dtype fp16" "$root/scripts/device-variants.sh"
t=/tmp/trimm-variants/build-base/tools/cli/trimm
export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
{
  for b in 4 16; do
    "$t" bench --dtype bf16 --sizes 64,128,256,512 --batch $b
    "$t" bench --dtype bf16 --sizes 64,128,256,512 --batch $b --kernel sm80_16bit_small
    "$t" bench --dtype bf16 --sizes 64,128,256,512 --batch $b --kernel sm80_16bit
  done
  "$t" bench --dtype bf16 --sizes 512,576,640,768,896,1024
} 2>&1 | tee "$OUT/batch_anchors.txt"
