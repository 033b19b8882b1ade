#!/usr/bin/env bash
# Validation of warpsim on published measurements of public kernels on current GPUs
# (docs/validation.md): builds each kernel from its public repository at the recorded commit,
# predicts every usable row of ../shared/data/public/rows.csv uncalibrated, and prints as its last
# line `public measurements: N rows, M GPUs, mean error X%, rank correlation R`.
#
#   scripts/validate-public.sh [--repos DIR] [--out DIR] [--data DIR] [--recipes FILE]
#                              [--warpsim PATH] [-j N] [--no-charts] [--write-docs docs/validation.md]
#
# --repos DIR holds local copies of the repositories (DIR/OWNER/NAME or DIR/OWNER+NAME); without
# it they are cloned from GitHub into OUT/repos. Needs nvcc, git and a built warpsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$root/scripts/validate_public.py" "$@"
