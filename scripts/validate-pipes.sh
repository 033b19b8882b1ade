#!/usr/bin/env bash
# Pipe physics (docs/validation.md, "Pipe physics"): the pipes model on the pipe-bound kernels of
# workloads/pipes/pipe_bound.ptx, every built-in profile of CC >= 7.0, against the bound
# work / (table throughput x sm_count x clock); prints a table per (GPU, class), a summary per
# class and as its last line `pipe physics (MODEL): N of M (GPU, class) within [1, 1.3] of the
# bound, K below it`.
#
#   scripts/validate-pipes.sh [--warpsim PATH] [--model pipes|memory] [--tables DIR] [--gpus ID,...]
#                             [--classes C,...] [-j N] [--measured CSV [--measured-gpu ID]]
#                             [--csv FILE] [--write-docs [docs/validation.md]]
#
# Needs a built warpsim (build/release/warpsim or build/ci/warpsim, or --warpsim PATH) and the
# pipes tables gpus/pipes/cc_X_Y.toml (or --tables DIR). --measured takes the CSV of
# scripts/measure/pipes.sh (a GPU run of the same kernels).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$root/scripts/validate_pipes.py" "$@"
