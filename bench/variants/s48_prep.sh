# Builds build-carry/s48.tar.xz for bench/variants/s48_call1.sh, here (no GPU needed, ~10 min on
# 2 cores): main's trimm and test_gpu_16bit (s48a) and the same with
# bench/variants/s48_dense_detect16.patch (s48b), stripped. Needs scripts/device-deps.sh's
# packages (it runs scripts/lib/build.sh's dependency step through the clone's test build).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
git clone -q "$root" "$tmp/src"
cd "$tmp/src"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTRIMM_BUILD_TESTS=ON > "$tmp/cfg.log"
targets="trimm_cli test_gpu_16bit"
cmake --build build --target $targets -j "$(nproc)" > "$tmp/build-a.log"
mkdir -p "$tmp/out/s48a" "$tmp/out/s48b"
cp build/tools/cli/trimm build/tests/test_gpu_16bit "$tmp/out/s48a/"
git apply "$root/bench/variants/s48_dense_detect16.patch"
cmake --build build --target $targets -j "$(nproc)" > "$tmp/build-b.log"
cp build/tools/cli/trimm build/tests/test_gpu_16bit "$tmp/out/s48b/"
strip "$tmp"/out/*/*
mkdir -p "$root/build-carry"
XZ_OPT=-9e tar -C "$tmp/out" -cJf "$root/build-carry/s48.tar.xz" s48a s48b
rm -rf "$tmp"
ls -la "$root/build-carry/s48.tar.xz"
