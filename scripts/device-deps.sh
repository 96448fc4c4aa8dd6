#!/usr/bin/env bash
# The GPU machine reaches no package registry: copy this machine's OpenBLAS and GoogleTest
# sources into .deps/ (git-ignored) so that a device call can carry them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dst=$root/.deps
rm -rf "$dst" && mkdir -p "$dst/openblas/include" "$dst/openblas/lib"
inc=/usr/include/x86_64-linux-gnu/openblas-pthread
lib=/usr/lib/x86_64-linux-gnu/openblas-pthread
cp "$inc/cblas.h" "$inc/openblas_config.h" "$dst/openblas/include/"
so=$(readlink -f "$lib/libopenblas.so")
cp "$so" "$dst/openblas/lib/"
ln -s "$(basename "$so")" "$dst/openblas/lib/libopenblas.so"
ln -s "$(basename "$so")" "$dst/openblas/lib/libopenblas.so.0"
cp -L /usr/lib/x86_64-linux-gnu/libgfortran.so.5 /usr/lib/x86_64-linux-gnu/libquadmath.so.0 \
  "$dst/openblas/lib/"
cp -r /usr/src/googletest "$dst/googletest"
du -sh "$dst"
