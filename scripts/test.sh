#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the README's test command; CI runs exactly this):
#   1. the ci preset (GCC, warnings as errors) and every test;
#   1b. the Python module: `pip install .` into build/python-venv and its pytest tests
#       (scripts/python-test.sh; needs PyPI for scikit-build-core, nanobind, pandas and pytest);
#   2. the same tests under AddressSanitizer + UndefinedBehaviorSanitizer (the asan preset);
#   3. a short libFuzzer run, 15 s per harness (scripts/fuzz.sh; docs/fuzzing.md).
# WARPSIM_SANITIZERS=0 skips step 2, WARPSIM_FUZZ=0 skips step 3, WARPSIM_PYTHON=0 step 1b
# (docs/reliability.md).
# WARPSIM_MPI=1 installs Open MPI and Boost.MPI and builds step 1 with -DWARPSIM_MPI=ON (its
# tests include a 2-rank sweep, docs/cluster.md); WARPSIM_MPI=0 builds without; unset, step 1 has
# MPI when the packages are installed. Steps 2 and 3 never do.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if [[ -z "${WARPSIM_MPI:-}" ]]; then
  dpkg-query -W -f='${Status}' libboost-mpi-dev 2>/dev/null | grep -q "install ok installed" && WARPSIM_MPI=1 || WARPSIM_MPI=0
fi
preset="${WARPSIM_PRESET:-ci}"
mpi_option=OFF
[[ "$WARPSIM_MPI" == 1 && "$preset" != asan ]] && mpi_option=ON
cmake --preset "$preset" -DWARPSIM_MPI="$mpi_option"
cmake --build --preset "$preset"
ctest --preset "$preset" -j2 --no-tests=error
# The Python module: `pip install .` in a venv, then pytest (docs/library.md); WARPSIM_PYTHON=0 skips.
WARPSIM_PRESET="$preset" scripts/python-test.sh

if [[ "${WARPSIM_SANITIZERS:-1}" != 0 && "$preset" != asan ]]; then
  cmake --preset asan
  cmake --build --preset asan
  ctest --preset asan -j2 --no-tests=error
fi

if [[ "${WARPSIM_FUZZ:-1}" != 0 ]]; then
  scripts/fuzz.sh "${WARPSIM_FUZZ_SECONDS:-15}"
fi
