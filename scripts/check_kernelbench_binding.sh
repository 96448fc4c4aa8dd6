#!/usr/bin/env bash
# Compiles (syntax only) the C++ binding that kernelbench/level1_14_trimm.py hands to load_inline,
# without a GPU or PyTorch: against the headers of Debian's libtorch-dev and pybind11-dev, which
# scripts/lib/build.sh's trimm_torch_headers unpacks into .torch-headers/. Otherwise only the
# device compiles it, and a mistake there breaks the main job. Debian's headers (PyTorch 1.13) are
# older than a KernelBench machine's: this checks the C++, not every API a newer PyTorch has.
#   scripts/check_kernelbench_binding.sh [nvcc]    (nvcc: where CUDA's headers are; default PATH)
# Exit 77 (CTest: skipped, with the reason) where the headers or Python.h are missing.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
inc=${TRIMM_TORCH_HEADERS:-$root/.torch-headers/usr/include}
skip() {
  echo "SKIPPED: $*"
  exit 77
}
if [ ! -f "$inc/torch/extension.h" ] || [ ! -f "$inc/pybind11/pybind11.h" ]; then
  skip "no PyTorch headers at $inc (scripts/test.sh fetches them: trimm_torch_headers)"
fi
py=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null) ||
  skip "no python3"
[ -f "$py/Python.h" ] || skip "no Python.h at $py (install python3-dev)"
nvcc=${1:-$(command -v nvcc)}
cuda=$(dirname "$(dirname "$nvcc")")/include
[ -f "$cuda/cuda_runtime_api.h" ] || skip "no CUDA headers at $cuda"
src=$(mktemp --suffix=.cpp)
trap 'rm -f "$src"' EXIT
python3 "$root/scripts/gen_kernelbench.py" --check --emit-binding "$src" || exit 1
if ! "${CXX:-g++}" -std=c++17 -fsyntax-only -isystem "$inc" \
  -isystem "$inc/torch/csrc/api/include" -isystem "$py" -isystem "$cuda" "$src"; then
  echo "the KernelBench binding does not compile"
  exit 1
fi
echo "the KernelBench binding compiles against PyTorch's headers ($inc)"
