#!/usr/bin/env bash
# One call on the GPU machine: build, GPU tests, compute-sanitizer, bench. Logs go under $OUT.
#   STEPS="build test sanitize bench sass" (default: all but sass)
#   BENCH_ARGS="--sizes 2048,4096,8192"    (passed to `trimm bench`)
# Where the machine has no OpenBLAS or GoogleTest, run scripts/device-deps.sh here first and
# carry .deps: this script picks it up.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-device/out}
mkdir -p "$out"
steps=${STEPS:-build test sanitize bench}
build=$root/build-device
extra=()
if [ -d "$root/.deps/openblas" ]; then
  extra+=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas")
  export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
fi
[ -d "$root/.deps/googletest" ] && extra+=(-DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest")
status=0
note() { echo "== $* ==" | tee -a "$out/summary.txt"; }
has() { [[ " $steps " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv > "$out/gpu.txt" 2>&1
cat "$out/gpu.txt"
git -C "$root" rev-parse --short HEAD > "$out/commit.txt" 2>/dev/null

if has build; then
  note build
  { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" &&
    cmake --build "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  grep -E "spill|stack frame" "$out/build.log" | sort | uniq -c | head -20
fi
if has test; then
  note "ctest (all labels)"
  (cd "$build" && ctest --output-on-failure -j 4 --timeout 900) > "$out/ctest.log" 2>&1 || status=1
  tail -5 "$out/ctest.log"; grep -E "Failed|FAILED" "$out/ctest.log" | head -20
fi
if has sanitize; then
  for tool in memcheck racecheck synccheck; do
    note "compute-sanitizer $tool"
    filter='*'
    [ "$tool" != memcheck ] && filter='*simt_fp32*n129*:*simt_fp32*n255*:*Batched*n33*:*naive_fp32_upper_n129*'
    TRIMM_TEST_MAX_N=300 compute-sanitizer --tool "$tool" --error-exitcode 1 \
      "$build/tests/test_gpu" --gtest_filter="$filter" > "$out/sanitizer-$tool.log" 2>&1 || status=1
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$out/sanitizer-$tool.log" | tail -3
  done
fi
if has bench; then
  note "trimm bench ${BENCH_ARGS:-}"
  # shellcheck disable=SC2086
  "$build/tools/cli/trimm" bench ${BENCH_ARGS:-} | tee "$out/bench.txt" || status=1
  "$build/tools/cli/trimm" bench ${BENCH_ARGS:-} --json > "$out/bench.json" 2>/dev/null || status=1
fi
if has sass; then
  note sass
  cuobjdump --dump-resource-usage "$build/src/libtrimm.a" > "$out/resources.txt" 2>&1
  cuobjdump --dump-sass "$build/src/libtrimm.a" | grep -oE "(FFMA|HGMMA|HMMA|LDS\.128|LDG\.E\.128|STL|LDL)[^ ]*" \
    | sort | uniq -c > "$out/sass-ops.txt"
  cat "$out/sass-ops.txt"
fi
note "exit $status"
exit $status
