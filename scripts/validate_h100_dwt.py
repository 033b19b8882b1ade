#!/usr/bin/env python3
"""The H100 DWT measurements (workloads/measurements/h100-dwt.csv), predicted uncalibrated from the
kernels' PTX (docs/validation.md, "H100 DWT from PTX"): predict, then compare; nothing is fitted.

    scripts/validate_h100_dwt.py [--warpsim PATH] [--model NAME] [--out DIR]

Every row is one transform as the harness timed it (workloads/measurements/README.md): the matrix
DWT is one launch of `mtx(K, N, idata, odata, coefs, total = N)`, the lattice DWT K/2 + 1 launches
of `ltt(k, L = K/2 + 1, N, data, coefs, total = N/2)` for k = 0..L-1, each at the row's blocks and
threads. warpsim predicts each launch of workloads/dwt/dwt.sm_90.ptx (the same kernels, built for
sm_90) on the built-in h100 profile (`warpsim sweep --points`, t_p the profile's launch overhead
per launch) and a row's prediction is the sum, every launch after the first of a transform paying
the profile's back-to-back overhead (launch_overhead_back_to_back_us, measured by the kit) for its
t_p under the memory and pipes models, as warpsim's own multi-launch workloads do. Prints a table per workload and K, then as its last
line `h100 dwt (MODEL): mean error X% over N rows (matrix Y%, lattice Z%)`, the error being
|predicted / measured - 1|. Exit status 0 after a run, 1 when warpsim fails, 2 on bad input.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import warpsim_binary

ROOT = Path(__file__).resolve().parent.parent
PTX = ROOT / "workloads" / "dwt" / "dwt.sm_90.ptx"
MEASURED = ROOT / "workloads" / "measurements" / "h100-dwt.csv"


def launches(row: dict) -> list[tuple[str, dict[int, int]]]:
    """(entry, parameters by position) of each launch of one measured transform."""
    k, n = int(row["K"]), int(row["N"])
    if row["workload"] == "dwt_matrix":
        return [("_Z3mtxiiPfS_S_i", {0: k, 1: n, 5: n})]
    if row["workload"] == "dwt_lattice":
        stages = k // 2 + 1
        return [("_Z3lttiiiPfS_i", {0: s, 1: stages, 2: n, 5: n // 2}) for s in range(stages)]
    raise ValueError(f"unknown workload {row['workload']!r}")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", help="the warpsim binary (default: the newer of build/release and build/ci, else PATH's)")
    ap.add_argument("--model", help="warpsim's timing model (default: warpsim's default, pipes)")
    ap.add_argument("--out", type=Path, help="keep the points and predictions here")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    warpsim = warpsim_binary.find_warpsim(args.warpsim)
    if warpsim is None:
        print(f"validate_h100_dwt: {warpsim_binary.missing_message(args.warpsim)}", file=sys.stderr)
        return 2
    model = args.model or warpsim_binary.default_model(warpsim)
    with MEASURED.open(newline="") as f:
        rows = list(csv.DictReader(f))
    out = args.out or Path(tempfile.mkdtemp(prefix="warpsim-h100-dwt-"))
    out.mkdir(parents=True, exist_ok=True)
    points, predicted = out / "points.csv", out / "predicted.csv"
    owner: dict[str, int] = {}
    try:
        with points.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["point", "gpu", "kernel", "entry", "grid", "block"] + [f"param:{i}" for i in range(6)])
            for r, row in enumerate(rows):
                for j, (entry, params) in enumerate(launches(row)):
                    key = f"{r}.{j}"
                    owner[key] = r
                    w.writerow([key, row["gpu"], str(PTX), entry, row["blocks"], row["threads"]]
                               + [params.get(i, "") for i in range(6)])
    except (KeyError, ValueError) as e:
        print(f"validate_h100_dwt: {MEASURED}: {e}", file=sys.stderr)
        return 2
    p = subprocess.run([warpsim, "sweep", "--points", str(points), "--model", model, "-o", str(predicted),
                        "-j", "2", "--quiet"], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr.strip(), file=sys.stderr)
        return 1
    facts = subprocess.run([warpsim, "gpus", "h100", "--format", "json"], capture_output=True, text=True)
    following = None
    if facts.returncode == 0 and model != "paper":
        following = json.loads(facts.stdout).get("launch_overhead_back_to_back_us")
    total = [0.0] * len(rows)
    with predicted.open(newline="") as f:
        for r in csv.DictReader(f):
            t = float(r["time_us"])
            if following is not None and not r["point"].endswith(".0"):  # follows a launch of its transform
                t += following - float(r["tp_us"])
            total[owner[r["point"]]] += t
    errors: dict[tuple[str, str], list[float]] = {}
    ratios: dict[tuple[str, str], list[float]] = {}
    for row, t in zip(rows, total):
        ratio = t / float(row["time_us"])
        errors.setdefault((row["workload"], row["K"]), []).append(abs(ratio - 1))
        ratios.setdefault((row["workload"], row["K"]), []).append(ratio)
    print(f"| workload | K | rows | mean error % | median predicted / measured | min | max |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for key in sorted(errors):
        e, q = errors[key], ratios[key]
        print(f"| {key[0]} | {key[1]} | {len(e)} | {100 * statistics.fmean(e):.1f} | {statistics.median(q):.2f} | "
              f"{min(q):.2f} | {max(q):.2f} |")
    every = [x for e in errors.values() for x in e]
    per = {w: [x for (wl, _), e in errors.items() if wl == w for x in e] for w in ("dwt_matrix", "dwt_lattice")}
    print(f"h100 dwt ({model}): mean error {100 * statistics.fmean(every):.1f}% over {len(every)} rows "
          f"(matrix {100 * statistics.fmean(per['dwt_matrix']):.1f}%, lattice {100 * statistics.fmean(per['dwt_lattice']):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
