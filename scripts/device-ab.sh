#!/usr/bin/env bash
# A/B of one source change on the GPU machine, in one call: builds the working tree (A) and a
# copy with `sed -e "$AB_SED"` applied to $AB_FILE (B; default src/config/tile_config.hpp), runs
# the GPU tests matching AB_TESTS on A, then benches A, B, A, B with the kernel forced
# (AB_KERNEL, AB_SIZES). B may be a timing probe that leaves a step out (wrong results).
# Output under $OUT/ab.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-device/out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
deps=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas" -DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest")
build() {  # source dir, build dir, targets...
  local src=$1 dir=$2; shift 2
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${deps[@]}" > "$dir.log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" --target "$@" >> "$dir.log" 2>&1 || { tail -30 "$dir.log"; return 1; }
}
b=/tmp/trimm-b
rm -rf "$b" && mkdir -p "$b"
cp -r "$root"/{CMakeLists.txt,cmake,include,src,tools,tests} "$b"/
file=${AB_FILE:-src/config/tile_config.hpp}
sed -i -e "${AB_SED:?}" "$b/$file"
{
  echo "B: $AB_SED on $file"; diff <(cat "$root/$file") "$b/$file" | head -20
  build "$root" "$root/build-device" trimm_cli test_gpu & build "$b" "$b/build" trimm_cli & wait
  if [ -n "${AB_TESTS:-}" ]; then
    "$root/build-device/tests/test_gpu" --gtest_filter="$AB_TESTS" 2>&1 | grep -E "PASSED|FAILED|Failure" | head -20
  fi
  for v in A B A B; do
    bin=$root/build-device/tools/cli/trimm; [ $v = B ] && bin=$b/build/tools/cli/trimm
    echo "== $v"
    "$bin" bench --sizes "${AB_SIZES:-4096}" --kernel "${AB_KERNEL:-sm90_tf32x3}" --no-anchors 2>&1 | grep -E "trimm "
  done
} 2>&1 | tee "$out/ab.txt"
