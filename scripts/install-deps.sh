#!/usr/bin/env bash
# Installs every build and test dependency of warpsim from Debian packages (Debian 12 / bookworm
# or newer; Ubuntu 22.04+ has the same names). Run as root, or as a user with sudo.
# With --mpi (or WARPSIM_MPI=1) also Open MPI and Boost.MPI, for -DWARPSIM_MPI=ON (docs/cluster.md).
set -euo pipefail
mpi="${WARPSIM_MPI:-0}"
for arg in "$@"; do
  case "$arg" in
    --mpi) mpi=1 ;;
    *) echo "install-deps: unknown argument $arg (usage: install-deps.sh [--mpi])" >&2; exit 2 ;;
  esac
done

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
)
if [[ "$mpi" == 1 ]]; then
  packages+=(openmpi-bin libopenmpi-dev libboost-mpi-dev)  # Boost.MPI over Open MPI: `warpsim sweep --mpi`
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
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
