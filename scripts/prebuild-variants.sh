#!/usr/bin/env bash
# Builds the variants of a VARIANTS file here, where no GPU is needed, for a device call that
# only runs them (scripts/device-variants.sh with VAR_PREBUILT): the device's budget then pays
# for no build. One tree is rebuilt per variant (only the files a variant changes recompile:
# ~40 s for one kernel file on 2 cores), and each variant's binaries are stripped and packed into
# build-carry/variants.tar.xz (~3 MB a binary), which the call carries:
#   VARIANTS=bench/variants/x.txt PRE_TESTS="compact" PRE_TEST_TARGETS=test_gpu_16bit \
#     scripts/prebuild-variants.sh
#   run: carry ["build-carry"], command "VAR_PREBUILT=build-carry/variants.tar.xz VARIANTS=... \
#     scripts/device-variants.sh" (the same VARIANTS, VAR_TEST_VARIANTS naming PRE_TESTS' trees)
# PRE_TESTS: the variants whose test binaries (PRE_TEST_TARGETS, default test_gpu
# test_gpu_16bit) are packed too. PRE_EXTRA: more targets of the base tree (bench/probes'
# programs), packed beside its CLI; device-variants.sh leaves them in
# /tmp/trimm-variants/prebuilt/base/. The CUDA toolkit and .deps (scripts/device-deps.sh) are
# needed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/variants.sh
source "$root/scripts/lib/variants.sh"
work=/tmp/trimm-prebuild
mkdir -p "$work"
rm -rf "$work/trees" "$work/out" && mkdir -p "$work/trees" "$work/out"
variants_make "$root" "${VARIANTS:?}" "$work/trees"
test_targets=${PRE_TEST_TARGETS:-test_gpu test_gpu_16bit}
dirs=(CMakeLists.txt cmake include src tools tests bench)

# Makes $work/tree hold exactly tree $1's files, touching only those that differ (so that make
# recompiles only what changed).
sync_tree() {
  local from=$1 f
  (cd "$from" && find "${dirs[@]}" -type f) | sort > "$work/want"
  mkdir -p "$work/tree"
  (cd "$work/tree" && find "${dirs[@]}" -type f 2> /dev/null || true) | sort > "$work/have"
  comm -13 "$work/want" "$work/have" | while read -r f; do rm -f "$work/tree/$f"; done
  while read -r f; do
    if ! cmp -s "$from/$f" "$work/tree/$f"; then
      mkdir -p "$(dirname "$work/tree/$f")" && cp "$from/$f" "$work/tree/$f"
    fi
  done < "$work/want"
}

for v in "${VARIANT_NAMES[@]}"; do
  src=$root; [ "$v" != base ] && src=$work/trees/$v
  sync_tree "$src"
  targets=(trimm_cli)
  # shellcheck disable=SC2206
  [[ " ${PRE_TESTS:-} " == *" $v "* ]] && targets+=($test_targets)
  # shellcheck disable=SC2206
  [ "$v" = base ] && targets+=(${PRE_EXTRA:-})
  echo "[prebuild] $v: ${targets[*]}" >&2
  cmake -S "$work/tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=ON \
    -DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas" \
    -DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest" > "$work/cmake.log" 2>&1 ||
    { tail -20 "$work/cmake.log" >&2; exit 1; }
  cmake --build "$work/build" -j "$(nproc)" --target "${targets[@]}" > "$work/build-$v.log" 2>&1 ||
    { echo "[prebuild] $v FAILED" >&2; tail -20 "$work/build-$v.log" >&2; exit 1; }
  mkdir -p "$work/out/$v"
  cp "$work/build/tools/cli/trimm" "$work/out/$v/"
  for t in "${targets[@]:1}"; do
    find "$work/build/tests" "$work/build/bench" -name "$t" -type f -perm -u+x \
      -exec cp {} "$work/out/$v/" \;
    [ -e "$work/out/$v/$t" ] || { echo "[prebuild] $v: no binary $t" >&2; exit 1; }
  done
  strip "$work/out/$v"/*
done
mkdir -p "$root/build-carry"
tar -C "$work/out" -cf - . | xz -T0 -6 > "$root/build-carry/variants.tar.xz"
ls -l "$root/build-carry/variants.tar.xz" >&2
