#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the README's test command; CI runs exactly this).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
preset="${WARPSIM_PRESET:-ci}"
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" -j2
