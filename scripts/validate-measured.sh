#!/usr/bin/env bash
# Validation of warpsim on real measurements (docs/validation.md): predicts the amaris_nca rows
# of ../shared/data/measured/measured.csv, calibrates on held-out splits, and prints as its last
# line `held-out sizes MAPE X%, leave-one-kernel-out MAPE Y%`.
#
#   scripts/validate-measured.sh [PTX_DIR] [--out DIR] [--data DIR] [--profiles DIR] [-j N] [--no-charts]
#
# PTX_DIR (default workloads/measured/ptx/) holds <kernel>-T<Tile_Width>.ptx for every kernel and
# Tile_Width measured. Needs build/release/warpsim (or warpsim on PATH, or --warpsim PATH).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$root/scripts/validate_measured.py" "$@"
