#!/usr/bin/env bash
# The corpus test of real PTX (docs/reliability.md): builds the public CUDA suites of
# scripts/corpus/suites.toml at their pinned commits and predicts every kernel; last line
#   corpus: N kernels, P predicted, R refused, F failed, slowest S s
#
#   scripts/corpus.sh [--repos DIR] [--out DIR] [--only SUITE]... [--timeout S]
#                     [--check-emulate-all S] [-j N] [--write-docs docs/reliability.md]
#
# See `scripts/corpus.sh --help` for every option. Needs nvcc, git and a built warpsim.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$root/scripts/corpus.py" "$@"
