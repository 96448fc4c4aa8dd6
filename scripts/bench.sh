#!/usr/bin/env bash
# Builds trimm (Release, in build/) and runs `trimm bench` with the given options, e.g.
#   scripts/bench.sh --sizes 2048,4096 --runs 30
# On a machine without a GPU it benches the CPU backend. See `build/tools/cli/trimm help`.
# Build output goes to stderr: stdout is the bench's table (or JSON with --json).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib/build.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/build.sh"

trimm_deps
trimm_build
exec "$TRIMM_BUILD_DIR/tools/cli/trimm" bench "$@"
