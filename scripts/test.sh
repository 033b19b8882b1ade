#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the README's test command; CI runs exactly this):
#   1. the ci preset (GCC, warnings as errors) and every test;
#   2. the same tests under AddressSanitizer + UndefinedBehaviorSanitizer (the asan preset);
#   3. a short libFuzzer run, 15 s per harness (scripts/fuzz.sh; docs/fuzzing.md).
# WARPSIM_SANITIZERS=0 skips step 2, WARPSIM_FUZZ=0 skips step 3 (docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
preset="${WARPSIM_PRESET:-ci}"
cmake --preset "$preset"
cmake --build --preset "$preset"
ctest --preset "$preset" -j2 --no-tests=error

if [[ "${WARPSIM_SANITIZERS:-1}" != 0 && "$preset" != asan ]]; then
  cmake --preset asan
  cmake --build --preset asan
  ctest --preset asan -j2 --no-tests=error
fi

if [[ "${WARPSIM_FUZZ:-1}" != 0 ]]; then
  scripts/fuzz.sh "${WARPSIM_FUZZ_SECONDS:-15}"
fi
