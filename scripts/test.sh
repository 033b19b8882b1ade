#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite (the README's test command; CI runs exactly this):
#   0. scripts/install-deps.sh --test-tools: the Debian packages, chromium and NVIDIA's SASS tools
#      (so ExplainViews and PipeUseAgainstPtxas run rather than skip), and the Python venv;
#   1. the ci preset (GCC, warnings as errors, the Python module among its targets) and every test;
#   1b. the Python module: the wheel from the ci build's own compiled libraries and module,
#       repaired and installed into build/python-venv, and its pytest tests (scripts/python-test.sh;
#       needs PyPI for scikit-build-core, nanobind, pandas and pytest);
#   2. the sanitizer build (the asan preset: clang, AddressSanitizer + UBSan at -O1): the tests that
#      run library code (the CLI tests: step 1's program against the sanitized warpsim; the longest
#      exhaustive tests on a sample of their cases), then
#   3. a short libFuzzer run of each input reader, the harnesses from that same build, 15 s per
#      harness, two at a time on 2 cores (scripts/fuzz.sh; docs/fuzzing.md).
# It ends with one line per phase and its time.
# WARPSIM_SANITIZERS=0 skips step 2, WARPSIM_FUZZ=0 skips step 3, WARPSIM_PYTHON=0 step 1b
# (docs/reliability.md).
# WARPSIM_MPI=1 installs Open MPI and Boost.MPI and builds step 1 with -DWARPSIM_MPI=ON (its
# tests include a 2-rank sweep, docs/cluster.md); WARPSIM_MPI=0 builds without; unset, step 1 has
# MPI when the packages are installed. Steps 2 and 3 never do.
set -euo pipefail
cd "$(dirname "$0")/.."

# One line per phase with its wall time, printed at the end, also when a phase fails.
phases=()
run_start=$SECONDS
phase_start=$SECONDS
phase_done() {
  phases+=("$(printf '%-34s %5d s' "$1" $((SECONDS - phase_start)))")
  phase_start=$SECONDS
}
report_phases() {
  local status=$?
  [[ ${#phases[@]} -gt 0 ]] || return 0
  echo
  echo "test.sh: phase times"
  printf '  %s\n' "${phases[@]}"
  printf '  %-34s %5d s%s\n' total $((SECONDS - run_start)) "$([[ $status == 0 ]] || echo " (stopped: exit $status)")"
}
trap report_phases EXIT

scripts/install-deps.sh --test-tools
# ccache (CMakeLists.txt uses it when installed) keyed on paths relative to the repository, so that a
# clone in another folder (CI's) reuses what a build here compiled. No library source uses __FILE__.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
if [[ -z "${WARPSIM_MPI:-}" ]]; then
  dpkg-query -W -f='${Status}' libboost-mpi-dev 2>/dev/null | grep -q "install ok installed" && WARPSIM_MPI=1 || WARPSIM_MPI=0
fi
preset="${WARPSIM_PRESET:-ci}"
mpi_option=OFF
[[ "$WARPSIM_MPI" == 1 && "$preset" != asan ]] && mpi_option=ON
# The Python module is one more target of the first pass: its venv (nanobind) must exist first.
python_options=(-DWARPSIM_PYTHON=OFF)
if [[ "${WARPSIM_PYTHON:-1}" != 0 && "$preset" != asan ]]; then
  scripts/python-test.sh --venv
  python_options=(-DWARPSIM_PYTHON=ON "-DPython_EXECUTABLE=$PWD/build/python-venv/bin/python")
fi
phase_done "install dependencies"

# The tests' interpreter named outright: the wheel build (step 1b) reconfigures this folder with
# the venv's as Python3_EXECUTABLE, and a rerun should test with the same one as the first run.
cmake --preset "$preset" -DWARPSIM_MPI="$mpi_option" "${python_options[@]}" "-DPython3_EXECUTABLE=$(command -v python3)"
cmake --build --preset "$preset"
phase_done "build ($preset)"
ctest --preset "$preset" -j2 --no-tests=error
phase_done "tests ($preset)"
# The Python module: the wheel from this build, a venv, then pytest (docs/library.md); WARPSIM_PYTHON=0 skips.
if [[ "${WARPSIM_PYTHON:-1}" != 0 ]]; then
  WARPSIM_PRESET="$preset" scripts/python-test.sh
  phase_done "python module"
fi

if [[ "${WARPSIM_SANITIZERS:-1}" != 0 && "$preset" != asan ]]; then
  # The CLI tests are the first pass's program, run against the sanitized warpsim (tests/CMakeLists.txt).
  cmake --preset asan "-DWARPSIM_CLI_TESTS=$PWD/build/$preset/tests/cli_tests"
  cmake --build --preset asan
  phase_done "build (asan)"
  ctest --preset asan -j2 --no-tests=error
  phase_done "tests (asan)"
fi

if [[ "${WARPSIM_FUZZ:-1}" != 0 ]]; then
  scripts/fuzz.sh "${WARPSIM_FUZZ_SECONDS:-15}"
  phase_done "fuzz"
fi
