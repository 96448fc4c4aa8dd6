#!/usr/bin/env bash
# Timing variants of the working tree on the GPU machine, in one call: each variant is a copy of
# the sources with sed expressions applied (a timing probe may leave a step out and compute
# garbage: only its time means anything). Builds all in parallel, then benches them in turn,
# twice, with each kernel of VAR_KERNELS forced at VAR_SIZES.
#   VARIANTS=bench/variants/sm90_probes.txt   lines: <name> <file> <sed expression>
#                                             (several lines per name: all apply; '#' comments)
#   VAR_KERNELS="sm90_tf32x3 sm90_tf32"  VAR_SIZES=4096
# The unmodified tree is variant "base". Output: $OUT/variants.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/build-device/out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$root/.deps/openblas/lib:${LD_LIBRARY_PATH:-}"
deps=(-DTRIMM_OPENBLAS_ROOT="$root/.deps/openblas" -DTRIMM_GTEST_SOURCE_DIR="$root/.deps/googletest")
work=/tmp/trimm-variants
rm -rf "$work" && mkdir -p "$work"
names=(base)
while read -r name file expr; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  if [ ! -d "$work/$name" ]; then
    mkdir -p "$work/$name"
    cp -r "$root"/{CMakeLists.txt,cmake,include,src,tools,tests,bench} "$work/$name"/
    names+=("$name")
  fi
  sed -i -e "$expr" "$work/$name/$file"
done < "${VARIANTS:?}"
build() {  # source dir, build dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=OFF "${deps[@]}" > "$2.log" 2>&1 &&
    cmake --build "$2" -j "$(nproc)" --target trimm_cli >> "$2.log" 2>&1 || { echo "build $1 FAILED"; tail -20 "$2.log"; }
}
{
  for v in "${names[@]}"; do
    src=$root; [ "$v" != base ] && src=$work/$v
    [ "$v" != base ] && diff -r "$root/src" "$src/src" | grep -E "^[<>]" | head -8 | sed "s/^/$v: /"
    build "$src" "$work/build-$v" &
  done
  wait
  for round in 1 2; do
    for v in "${names[@]}"; do
      for k in ${VAR_KERNELS:-sm90_tf32x3}; do
        printf "round %s  %-16s " "$round" "$v"
        "$work/build-$v/tools/cli/trimm" bench --sizes "${VAR_SIZES:-4096}" --kernel "$k" \
          --no-anchors 2>&1 | grep -E "^[0-9]+ +trimm " | tr '\n' ' '
        echo
      done
    done
  done
} 2>&1 | tee "$out/variants.txt"
