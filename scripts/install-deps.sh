#!/usr/bin/env bash
# Installs every build and test dependency of warpsim from Debian packages (Debian 12 / bookworm
# or newer; Ubuntu 22.04+ has the same names). Run as root, or as a user with sudo.
# With --mpi (or WARPSIM_MPI=1) also Open MPI and Boost.MPI, for -DWARPSIM_MPI=ON (docs/cluster.md).
# With --test-tools (scripts/test.sh passes it) also what only some tests use, so that they run rather
# than skip: Debian's chromium (tests/explain/views_test.py renders explain's HTML headless) and
# NVIDIA's cuobjdump and nvdisasm from PyPI (no Debian package has them) in their own virtual
# environment, build/sass-tools/venv, with the two programs linked into build/sass-tools/bin, where
# tests/CMakeLists.txt finds them. warpsim itself needs neither.
set -euo pipefail
mpi="${WARPSIM_MPI:-0}"
test_tools=0
for arg in "$@"; do
  case "$arg" in
    --mpi) mpi=1 ;;
    --test-tools) test_tools=1 ;;
    *) echo "install-deps: unknown argument $arg (usage: install-deps.sh [--mpi] [--test-tools])" >&2; exit 2 ;;
  esac
done
root="$(cd "$(dirname "$0")/.." && pwd)"

packages=(
  cmake ninja-build g++            # build
  libboost-graph-dev               # Boost.Graph: control-flow graphs (PTX frontend)
  libboost-program-options-dev     # Boost.Program_options: the CLI
  libtbb-dev                       # oneTBB: the parallel sweep driver
  libtomlplusplus-dev              # toml++: GPU profiles and suites
  nlohmann-json3-dev               # nlohmann-json: JSON output
  libgtest-dev                     # GoogleTest
  libbenchmark-dev                 # Google Benchmark
  libexpat1-dev                    # expat: the tests check generated SVG is well-formed XML
  libnlopt-dev libnlopt-cxx-dev    # NLopt: derivative-free optimisers for `warpsim calibrate` (nlopt.hpp)
  clang libclang-rt-dev            # clang++ and libFuzzer/ASan runtimes (libclang-rt-14-dev on Debian 12): the fuzz preset
  python3                          # the independent Python reference cross-check (tests/reference/)
  python3-dev python3-venv         # the Python module: `pip install .` in a venv (docs/library.md)
  libbenchmark-tools python3-scipy # Google Benchmark's compare.py: bench/compare.sh REV and its test
  ccache                           # compiler cache: CMakeLists.txt uses it when found (bench/compare.sh's two builds)
)
if [[ "$mpi" == 1 ]]; then
  packages+=(openmpi-bin libopenmpi-dev libboost-mpi-dev)  # Boost.MPI over Open MPI: `warpsim sweep --mpi`
fi
if [[ "$test_tools" == 1 ]]; then
  packages+=(chromium)             # headless render of explain's HTML (ExplainViews)
fi

# NVIDIA's SASS tools from PyPI (--test-tools): PipeUseAgainstPtxas and MeasureKitCompile read
# ptxas's SASS with them. Kept out of the system interpreter; reinstalled only when missing.
install_sass_tools() {
  local tools="$root/build/sass-tools" bin
  if [[ -x "$tools/bin/cuobjdump" && -x "$tools/bin/nvdisasm" ]]; then
    echo "install-deps: SASS tools already in build/sass-tools/bin"
    return
  fi
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/python" -m pip install --quiet --disable-pip-version-check nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
  # The wheels put the programs in their package folder (nvidia/cu13/bin), not on the venv's PATH.
  bin=$("$tools/venv/bin/python" -c 'import nvidia, os; print(os.path.join(list(nvidia.__path__)[0], "cu13", "bin"))')
  mkdir -p "$tools/bin"
  ln -sf "$bin/cuobjdump" "$bin/nvdisasm" "$tools/bin/"
  echo "install-deps: SASS tools in build/sass-tools/bin: $("$tools/bin/nvdisasm" --version | tail -n 1)"
}

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  [[ "$test_tools" == 0 ]] || install_sass_tools
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: run as root (or install sudo)" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
[[ "$test_tools" == 0 ]] || install_sass_tools
