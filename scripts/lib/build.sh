# shellcheck shell=bash
# The part scripts/test.sh and scripts/bench.sh share; source it, then call
#   trimm_deps    install missing Debian build dependencies (apt-get, only when missing)
#   trimm_build   configure build/ (Release) and build it with all cores
#   trimm_torch_headers  unpack PyTorch's C++ headers into .torch-headers/ (the KernelBench
#                 binding's compile check; never fatal)
# Environment:
#   TRIMM_BUILD_DIR   build directory (default: <repo>/build)
#   TRIMM_CMAKE_ARGS  extra configure arguments, split on spaces (e.g. -DTRIMM_OPENBLAS_ROOT=...)
#   CUDACXX           nvcc to use (otherwise: PATH, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda*)
# Everything here writes to stderr, so that a caller's stdout carries only its own result.

TRIMM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TRIMM_BUILD_DIR=${TRIMM_BUILD_DIR:-$TRIMM_ROOT/build}
TRIMM_DEB_PACKAGES=(cmake g++ make libopenblas-dev libgtest-dev pkg-config)

trimm_log() { echo "[trimm] $*" >&2; }
trimm_die() {
  echo "[trimm] error: $*" >&2
  exit 1
}

# Prints the path of nvcc, or fails. nvcc need not be on PATH (it is not in CI).
trimm_find_nvcc() {
  local c
  for c in "${CUDACXX:-}" "$(command -v nvcc 2>/dev/null || true)" \
           "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" "${CUDA_PATH:+$CUDA_PATH/bin/nvcc}" \
           /usr/local/cuda/bin/nvcc \
           $(printf "%s\n" /usr/local/cuda-*/bin/nvcc | sort -rV); do
    if [ -n "$c" ] && [ -x "$c" ]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

trimm_require_nvcc() {
  TRIMM_NVCC=$(trimm_find_nvcc) || trimm_die "the CUDA toolkit is required to build trimm, and" \
    "no nvcc was found (looked at \$CUDACXX, PATH, \$CUDA_HOME, \$CUDA_PATH, /usr/local/cuda*)." \
    "Install the CUDA toolkit (12.1 or later; https://developer.nvidia.com/cuda-downloads) or" \
    "set CUDACXX=/path/to/nvcc. A GPU is not needed to build or to run the CPU tests."
  # Put the toolkit's tools on PATH for CMake's FindCUDAToolkit and for anything run later.
  PATH="$(dirname "$TRIMM_NVCC"):$PATH"
  export PATH
}

trimm_deps() {
  trimm_require_nvcc
  if ! command -v dpkg >/dev/null 2>&1; then
    trimm_log "no dpkg (not Debian/Ubuntu): not installing anything; the build needs" \
      "${TRIMM_DEB_PACKAGES[*]} or their equivalents"
    return 0
  fi
  local p missing=()
  for p in "${TRIMM_DEB_PACKAGES[@]}"; do
    dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    trimm_log "build dependencies present: ${TRIMM_DEB_PACKAGES[*]}"
    return 0
  fi
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get)
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 ||
      trimm_die "missing packages: ${missing[*]}; not root and no sudo: install them with" \
        "apt-get install ${missing[*]}"
    apt=(sudo -n "${apt[@]}")
  fi
  trimm_log "installing missing packages: ${missing[*]}"
  { "${apt[@]}" update -q &&
    "${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"; } </dev/null >&2 ||
    trimm_die "apt-get could not install: ${missing[*]}"
}

trimm_build() {
  [ -n "${TRIMM_NVCC:-}" ] || trimm_require_nvcc
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  trimm_log "configure $TRIMM_BUILD_DIR (Release, nvcc: $TRIMM_NVCC)"
  # shellcheck disable=SC2086  # TRIMM_CMAKE_ARGS is a list of arguments
  cmake -S "$TRIMM_ROOT" -B "$TRIMM_BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_COMPILER="$TRIMM_NVCC" ${TRIMM_CMAKE_ARGS:-} >&2 ||
    trimm_die "cmake configure failed"
  trimm_log "build with $jobs jobs"
  cmake --build "$TRIMM_BUILD_DIR" -j "$jobs" >&2 || trimm_die "build failed"
}

# PyTorch's C++ headers for the CTest kernelbench_binding_compiles
# (scripts/check_kernelbench_binding.sh): Debian's libtorch-dev and pybind11-dev, downloaded and
# unpacked into .torch-headers/, not installed (the check needs their headers, not their
# libraries or dependencies). Two configuration headers are adjusted for a headers-only tree:
# Debian builds c10 with gflags and glog, whose headers are not unpacked, and ships no
# c10/cuda/impl/cuda_cmake_macros.h. Not under .deps/, which device calls carry (64 MiB at most;
# these headers are ~46 MB). Never fatal: without them the check skips, saying why.
trimm_torch_headers() {
  local dst=$TRIMM_ROOT/.torch-headers
  [ -f "$dst/usr/include/torch/extension.h" ] && [ -f "$dst/usr/include/pybind11/pybind11.h" ] &&
    return 0
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg >/dev/null 2>&1; then
    trimm_log "no apt-get/dpkg: PyTorch's headers not fetched (kernelbench_binding_compiles skips)"
    return 0
  fi
  local tmp
  tmp=$(mktemp -d)
  local get=(apt-get download libtorch-dev pybind11-dev)
  if ! (cd "$tmp" && "${get[@]}") >/dev/null 2>&1; then
    # A fresh machine may have no package lists yet.
    local update=(env DEBIAN_FRONTEND=noninteractive apt-get update -q)
    [ "$(id -u)" -ne 0 ] && update=(sudo -n "${update[@]}")
    "${update[@]}" </dev/null >/dev/null 2>&1 || true
    if ! (cd "$tmp" && "${get[@]}") >/dev/null 2>&1; then
      trimm_log "apt-get download libtorch-dev pybind11-dev failed: PyTorch's headers not" \
        "fetched (kernelbench_binding_compiles skips)"
      rm -rf "$tmp"
      return 0
    fi
  fi
  rm -rf "$dst" && mkdir -p "$dst"
  local deb
  for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$dst"; done
  rm -rf "$tmp"
  local inc=$dst/usr/include
  sed -i -e 's|^#define C10_USE_GFLAGS|/* #undef C10_USE_GFLAGS */|' \
    -e 's|^#define C10_USE_GLOG|/* #undef C10_USE_GLOG */|' "$inc/c10/macros/cmake_macros.h"
  mkdir -p "$inc/c10/cuda/impl"
  [ -f "$inc/c10/cuda/impl/cuda_cmake_macros.h" ] ||
    echo "#pragma once" > "$inc/c10/cuda/impl/cuda_cmake_macros.h"
  trimm_log "PyTorch's headers (Debian's libtorch-dev, pybind11-dev) unpacked into $dst"
}
