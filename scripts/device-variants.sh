#!/usr/bin/env bash
# Timing variants of the working tree on the GPU machine, in one call: each variant is a copy of
# the sources with sed expressions applied (a timing probe may leave a step out and compute
# garbage: only its time means anything). Builds all in parallel, then benches them in turn,
# twice, with each kernel of VAR_KERNELS forced at VAR_SIZES.
#   VARIANTS=bench/variants/sm90_probes.txt   lines: <name> <file> <sed expression>
#                                             (several lines per name: all apply; '#' comments)
#                                             or <name> <file> <<path>: the file replaced by
#                                             <path> (e.g. another version kept under bench/)
#                                             or <name> - @<path>: a unified diff (git diff
#                                             output, paths from the root) applied with patch
#   VAR_KERNELS="sm90_tf32x3 sm90_tf32"  VAR_SIZES=4096
#   VAR_TESTS='*sm90*'                    (also build the GPU tests of base, test_gpu and
#                                          test_gpu_16bit, and run these after the timings)
#   VAR_TEST_VARIANTS="both"              (with VAR_TESTS: the variants whose tests are built and
#                                          run, "base" among them if wanted; default base only)
#   VAR_TEST_TARGETS=test_gpu_16bit       (with VAR_TESTS: only these test binaries)
#   VAR_ARGS="--structure both"           (more arguments for every timed bench run)
#   VAR_ROUNDS=3                          (rounds of the whole bench; default 2)
#   VAR_PREBUILT=build-carry/variants.tar.xz
#                                         (no build here: the binaries scripts/prebuild-variants.sh
#                                          packed from the same VARIANTS; carry ["build-carry"])
#   VAR_UNTIMED="trace"                   (variants built but not timed: their binaries stay under
#                                          /tmp/trimm-variants/build-<name> for later commands)
#   VAR_RUNS="--kernel sm90_tf32x3 --structure both; --kernel simt_fp32"
#                                         (instead of VAR_KERNELS/VAR_ARGS: one timed run per
#                                          argument list, each at VAR_SIZES)
# The unmodified tree is variant "base". Output: $OUT/variants.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-device/out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
deps=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas" -DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest")
work=/tmp/trimm-variants
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=lib/variants.sh
source "$root/scripts/lib/variants.sh"
variants_make "$root" "${VARIANTS:?}" "$work" || exit 1
names=("${VARIANT_NAMES[@]}")
test_targets=${VAR_TEST_TARGETS:-test_gpu test_gpu_16bit}
tested() {  # " name ": whether this tree's GPU tests are built and run
  [ -n "${VAR_TESTS:-}" ] && [[ " ${VAR_TEST_VARIANTS:-base} " == *$1* ]]
}
build() {  # source dir, build dir, targets
  local src=$1 dir=$2 tests=OFF; shift 2
  [[ " $* " == *" test_"* ]] && tests=ON
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=$tests "${deps[@]}" > "$dir.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" --target "$@" >> "$dir.log" 2>&1 || { echo "build $src FAILED"; tail -20 "$dir.log"; }
}
{
  for v in "${names[@]}"; do
    src=$root; [ "$v" != base ] && src=$work/$v
    [ "$v" != base ] && diff -r "$root/src" "$src/src" | grep -E "^[<>]" | head -8 | sed "s/^/$v: /"
    targets=(trimm_cli)
    # shellcheck disable=SC2206
    tested " $v " && targets+=($test_targets)
    [ -z "${VAR_PREBUILT:-}" ] && build "$src" "$work/build-$v" "${targets[@]}" &
  done
  wait
  if [ -n "${VAR_PREBUILT:-}" ]; then  # binaries built elsewhere (scripts/prebuild-variants.sh)
    mkdir -p "$work/prebuilt" && tar -xJf "$root/$VAR_PREBUILT" -C "$work/prebuilt" || exit 1
    for v in "${names[@]}"; do
      [ -d "$work/prebuilt/$v" ] || { echo "variant $v: not in $VAR_PREBUILT"; exit 1; }
      mkdir -p "$work/build-$v/tools/cli" "$work/build-$v/tests"
      mv "$work/prebuilt/$v/trimm" "$work/build-$v/tools/cli/trimm"
      for t in "$work/prebuilt/$v"/test_*; do [ -e "$t" ] && mv "$t" "$work/build-$v/tests/"; done
    done
  fi
  runs=()
  if [ -n "${VAR_RUNS:-}" ]; then
    IFS=';' read -ra runs <<< "$VAR_RUNS"
  else
    for k in ${VAR_KERNELS:-sm90_tf32x3}; do runs+=("--kernel $k ${VAR_ARGS:-}"); done
  fi
  sizes=$(tr -s ' ' ',' <<< "${VAR_SIZES:-4096}")  # the CLI takes a comma list
  for round in $(seq "${VAR_ROUNDS:-2}"); do
    for v in "${names[@]}"; do
      [[ " ${VAR_UNTIMED:-} " == *" $v "* ]] && continue
      for args in "${runs[@]}"; do
        printf "round %s  %-16s " "$round" "$v"
        # shellcheck disable=SC2086
        run=$("$work/build-$v/tools/cli/trimm" bench --sizes "$sizes" --no-anchors $args 2>&1)
        # No timed row means the run failed: show why rather than an empty line.
        grep -E "^[0-9]+ +trimm " <<< "$run" | tr '\n' ' ' || echo -n "NO RESULT: ${run: -300}"
        echo
      done
    done
  done
  # Tests after the timings: a call that runs out of time still returns its times.
  for v in "${names[@]}"; do
    tested " $v " || continue
    for t in $test_targets; do
      echo "$v $t (whole log: $out/tests-$v-$t.txt):"
      "$work/build-$v/tests/$t" --gtest_filter="$VAR_TESTS" > "$out/tests-$v-$t.txt" 2>&1
      grep -E "PASSED|FAILED|Failure" "$out/tests-$v-$t.txt" | head -20
    done
  done
} 2>&1 | tee "$out/variants.txt"
