#!/usr/bin/env bash
# Builds trimm (Release, in build/) and runs every test with CTest. GPU tests skip, visibly,
# where there is no GPU. Installs missing Debian build dependencies first, and unpacks PyTorch's
# headers for the KernelBench binding's compile check (scripts/lib/build.sh).
# Arguments go to ctest, e.g. `scripts/test.sh -L cpu` or `scripts/test.sh -R install`.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/build.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/build.sh"

trimm_deps
trimm_torch_headers
trimm_build
trimm_log "ctest ${*:-(all labels)}"
if ! ctest --test-dir "$TRIMM_BUILD_DIR" --output-on-failure "$@"; then
  trimm_log "tests FAILED"
  exit 1
fi
trimm_log "C++ tests passed"

# The PyTorch operators (python/): where this python3 has torch, build and install the package
# (pip install --no-build-isolation .) and run its tests; elsewhere say why they do not run.
# A machine without pytest gets it from PyPI where it can (the tests without torch still run).
if [ -z "${TRIMM_SKIP_PYTHON:-}" ] && ! python3 -c "import pytest" >/dev/null 2>&1; then
  trimm_log "installing pytest (pip)"
  python3 -m pip install --quiet pytest </dev/null >&2 || trimm_log "pytest could not be installed"
fi
if [ -n "${TRIMM_SKIP_PYTHON:-}" ]; then
  trimm_log "python tests: SKIPPED (TRIMM_SKIP_PYTHON is set)"
elif ! python3 -c "import pytest" >/dev/null 2>&1; then
  trimm_log "python tests: SKIPPED (no pytest for $(command -v python3 || echo python3))"
elif ! python3 -c "import torch" >/dev/null 2>&1; then
  trimm_log "python tests: SKIPPED (PyTorch is not installed for $(command -v python3))"
  python3 -m pytest -q -rs "$TRIMM_ROOT/python/tests" >&2 || true  # prints the skip reason
else
  trimm_log "python package: pip install --no-build-isolation (PyTorch $(python3 -c 'import torch; print(torch.__version__)'))"
  python3 -m pip install --no-build-isolation --quiet "$TRIMM_ROOT" >&2 ||
    trimm_die "building the Python package failed"
  (cd "$TRIMM_ROOT/python/tests" && python3 -m pytest -q -rs .) || trimm_die "python tests FAILED"
fi
trimm_log "tests passed"
