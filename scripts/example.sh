#!/usr/bin/env bash
# Sets up, builds and runs the main job on a bundled example: the paper's DWT sweep (matrix vs
# lattice, K = 8 and 14, N = 2^6 .. 2^20) on the GeForce RTX 2080, printed as a table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release --target warpsim
./build/release/warpsim sweep workloads/suites/rtx2080-dwt.toml
