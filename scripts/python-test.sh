#!/usr/bin/env bash
# Tests the Python module (docs/library.md): `pip install .` into a venv, build/python-venv (made
# on the first run, reused after), then pytest on tests/python. WARPSIM_PYTHON=0 skips it.
# The tests compare results with the CLI's output when WARPSIM_BINARY names a built warpsim; unset,
# build/${WARPSIM_PRESET:-ci}/warpsim is used when it exists (scripts/test.sh has just built it).
# Needs PyPI (scikit-build-core, nanobind, pandas, pytest) and the C++ dependencies of
# scripts/install-deps.sh. CMAKE_BUILD_PARALLEL_LEVEL (default 2) sets the build's jobs.
set -euo pipefail
if [[ -n "${WARPSIM_BINARY:-}" ]]; then
  WARPSIM_BINARY="$(realpath -m "$WARPSIM_BINARY")"  # a path from where the script was started
fi
cd "$(dirname "$0")/.."
if [[ "${WARPSIM_PYTHON:-1}" == 0 ]]; then
  echo "python-test: skipped (WARPSIM_PYTHON=0)"
  exit 0
fi

venv=build/python-venv
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
start=$SECONDS
# A wheel built from this checkout in a temporary build folder (pyproject.toml), as users build it.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check . pytest
echo "python-test: pip install . took $((SECONDS - start)) s"

cli="$PWD/build/${WARPSIM_PRESET:-ci}/warpsim"
if [[ -z "${WARPSIM_BINARY:-}" && -x "$cli" ]]; then
  export WARPSIM_BINARY="$cli"
fi
echo "python-test: comparing with the CLI: ${WARPSIM_BINARY:-none (set WARPSIM_BINARY)}"
# `import warpsim` is the installed package: the source package is python/warpsim, not on sys.path.
"$venv/bin/python" -m pytest -q tests/python
