#!/usr/bin/env bash
# The calibrate-then-evaluate workflow of docs/evaluation.md on the committed H100 measurements:
# fit t_p and t_m of both DWT kernels on the filters K = 8 and 12, predict K = 10 and 14 with
# the fitted profile, and score the prediction against the measurements it never saw.
#   scripts/h100-holdout.sh [OUT_DIR]      (default build/h100-holdout; needs a build: WARPSIM=...)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/build/h100-holdout}"
warpsim="$(realpath "${WARPSIM:-$root/build/release/warpsim}")"
[ -x "$warpsim" ] || { echo "no $warpsim: build first (cmake --preset release && cmake --build --preset release)" >&2; exit 2; }
mkdir -p "$out/my-gpus"
cd "$out"
measured="$root/workloads/measurements/h100-dwt.csv"

# 1. Split by filter length: column 3 is K.
awk -F, 'NR == 1 || $3 == 8 || $3 == 12' "$measured" > fit.csv
awk -F, 'NR == 1 || $3 == 10 || $3 == 14' "$measured" > holdout.csv

# 2. Calibrate each kernel on the fit half (t_p fitted: the harness's launch_us includes a sync).
for workload in dwt_matrix dwt_lattice; do
  "$warpsim" calibrate fit.csv --gpu h100 --workload "$workload" --fit tm,tp -o "$workload.toml"
done

# 3. A profile with the fitted sections: the built-in H100 plus them (same id, h100).
cat "$root/gpus/h100.toml" dwt_matrix.toml dwt_lattice.toml > my-gpus/h100.toml

# 4. Predict the held-out points.
cat > holdout.toml <<'SUITE'
name = "h100-holdout"
gpus = ["my-gpus/h100.toml"]
workloads = ["dwt_matrix", "dwt_lattice"]
[axes]
K = [10, 14]
N = { powers_of = 2, from = 6, to = 20 }
SUITE
"$warpsim" sweep holdout.toml --quiet -o predicted.csv

# 5. Score them (eq. 15-22) and draw the ratio charts.
"$warpsim" evaluate predicted.csv holdout.csv --charts charts
"$warpsim" evaluate predicted.csv holdout.csv -o evaluation.json
echo "h100-holdout: results in $out (fitted sections: dwt_matrix.toml, dwt_lattice.toml)" >&2
