#!/usr/bin/env bash
# The CPU-side suites (test_cpu, test_dispatch, test_sched) under AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks included), in their own build tree: the host code that the
# GPU machine's compute-sanitizer runs do not see (the CPU backend, the fp64 references,
# dispatch, the scheduler's maths). ~3.5 min to build on 2 cores, ~1 min to run.
#   scripts/cpu_sanitize.sh [BUILD_DIR]     (default build-asan/)
# Exit status 1 where a suite fails or a sanitizer reports (halt_on_error).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-asan}
flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
extra=()
if [ -d "$root/.deps/openblas" ]; then
  extra+=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas")
  export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
fi
mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRIMM_BUILD_CLI=OFF \
  -DTRIMM_BUILD_PROBES=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
  "${extra[@]}" > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" --target test_cpu test_dispatch test_sched || exit 1
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
for t in tests/test_dispatch tests/test_sched tests/cpu/test_cpu; do
  echo "== $t under ASan + UBSan"
  "$build/$t" > "$build/$(basename "$t").log" 2>&1 || status=1
  grep -E '^\[  PASSED|^\[  FAILED|ERROR: AddressSanitizer|runtime error|LeakSanitizer' \
    "$build/$(basename "$t").log" | head -20
done
exit $status
