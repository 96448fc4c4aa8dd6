#!/usr/bin/env bash
# Builds trimm (Release, in build/) and runs every test with CTest. GPU tests skip, visibly,
# where there is no GPU. Installs missing Debian build dependencies first (scripts/lib/build.sh).
# Arguments go to ctest, e.g. `scripts/test.sh -L cpu` or `scripts/test.sh -R install`.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/build.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/build.sh"

trimm_deps
trimm_build
trimm_log "ctest ${*:-(all labels)}"
if ! ctest --test-dir "$TRIMM_BUILD_DIR" --output-on-failure "$@"; then
  trimm_log "tests FAILED"
  exit 1
fi
trimm_log "tests passed"
