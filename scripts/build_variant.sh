#!/usr/bin/env bash
# Builds the CLI (and the GPU tests) of a variant, REV with patches applied in order, for a device
# call: stripped binaries into DEST as trimm<SUFFIX> and test_gpu<SUFFIX>, and a line in
# DEST/COMMIT saying what they are. The tree is a throwaway worktree, so main's checkout (and its
# kernelbench file) is never touched. Needs .deps/ (scripts/device-deps.sh).
#
#   scripts/build_variant.sh DEST SUFFIX REV [PATCH ...]
#   TARGETS="trimm_cli" scripts/build_variant.sh /tmp/pk/s60 _base HEAD   # the CLI alone
#
# Then pack DEST for `run`'s carry, e.g. XZ_OPT=-9e tar -C /tmp/pk -cJf build-carry/s60.tar.xz s60
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
root=$(git rev-parse --show-toplevel)
dest=$1 suffix=$2 rev=$3
shift 3
targets=${TARGETS:-trimm_cli test_gpu}
patches=()
for p in "$@"; do patches+=("$(realpath "$p")"); done

wt=$(mktemp -d /tmp/variant.XXXXXX)
build=$wt.build
cleanup() {
  git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"
  rm -rf "$build"
}
trap cleanup EXIT
git -C "$root" worktree add -f --detach "$wt" "$rev" >/dev/null 2>&1
for p in "${patches[@]}"; do git -C "$wt" apply "$p"; done

cmake -S "$wt" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=ON \
  -DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas" -DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest" \
  > "$build.cmake.log" 2>&1 || { cat "$build.cmake.log" >&2; exit 1; }
# shellcheck disable=SC2086  # targets is a list
cmake --build "$build" -j"$(nproc)" --target $targets > "$build.log" 2>&1 ||
  { grep -E "error|Error" "$build.log" | head -20 >&2; exit 1; }

mkdir -p "$dest"
for t in $targets; do
  case $t in
    trimm_cli) src=$build/tools/cli/trimm name=trimm ;;
    test_gpu) src=$build/tests/test_gpu name=test_gpu ;;
    *) src=$(find "$build" -type f -name "$t" -perm -u+x | head -1) name=$t ;;
  esac
  cp "$src" "$dest/$name$suffix"
  strip "$dest/$name$suffix"
done
desc="$(git -C "$root" rev-parse --short "$rev")"
for p in "$@"; do desc+=" + $p"; done
echo "${suffix:-(no suffix)}: $desc" >> "$dest/COMMIT"
echo "built into $dest: $targets (suffix '${suffix}')"
