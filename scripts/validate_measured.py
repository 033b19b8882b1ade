#!/usr/bin/env python3
"""Validation of warpsim on real measurements (docs/validation.md).

    scripts/validate_measured.py [PTX_DIR] [--data DIR] [--out DIR] [--warpsim PATH]
                                 [--profiles DIR] [-j N] [--no-charts]

Reads the amaris_nca rows of ../shared/data/measured/measured.csv, predicts every row with
warpsim (one `warpsim sweep --points` of a generated point list: each measured GPU and
workload, the row's kernel built at its Tile_Width, its exact grid, block and registers), then
scores the predictions two ways:

  X  held-out sizes: per GPU, kernel and Tile_Width, sorted by N, fit (t_p, F_eff) on the even
     positions, predict the odd ones; the straight-line baseline T = a + b * work likewise.
  Y  leave-one-kernel-out: per GPU, fit one (t_p, F_eff) on every row of the other kernels,
     predict every row of the kernel left out, for each kernel in turn.

The last line printed is `held-out sizes MAPE X%, leave-one-kernel-out MAPE Y%`.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import validate_measured_lib as lib  # noqa: E402
import warpsim_binary  # noqa: E402

# --- Settings of the timing model under test --------------------------------------------------
# The paper model needs t_m (cycles); the memory-aware models predict cycles without it (None:
# each point's calibration gives only tp_us = 0).
TM = None  # the memory-aware models (memory, pipes): t_m from the profile (docs/model.md)
# Pass the measured registers per thread (the row's regs_per_thread) as the point's `regs`
# (occupancy); off, ptxas's count for the PTX (else 32) is used.
USE_REGS = True  # registers per thread from the data, for occupancy

# The kernels of the experiment: the eight amaris_nca kernels we have our own versions of.
# (subSeqMax is not among them: docs/validation.md says why.)
KERNELS = [
    "matMul_gpu",
    "matMul_gpu_uncoalesced",
    "matMul_gpu_sharedmem",
    "matMul_gpu_sharedmem_uncoalesced",
    "matrix_sum_coalesced",
    "matrix_sum_normal",
    "vectorAdd",
    "dotProd",
]
# Position of the size parameter in our kernels: (A, B, C, N) for all eight. Another build
# (PTX_DIR) may order its parameters otherwise: its one 32-bit integer parameter is taken as the
# size (the data's kernel_args column has one scalar for each of the eight), else this position.
SIZE_PARAM = 3

ROOT = Path(__file__).resolve().parent.parent
SUMMARY_FORMAT = "held-out sizes MAPE {x:.1f}%, leave-one-kernel-out MAPE {y:.1f}%"


class Fail(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --- Inputs -----------------------------------------------------------------------------------

def read_rows(data_dir: Path) -> tuple[list[dict], collections.Counter]:
    """The amaris_nca rows of KERNELS, with T (Tile_Width), N and the launch parsed."""
    path = data_dir / "measured.csv"
    if not path.is_file():
        raise Fail(f"{path}: not found (the measured data lies beside the repository, in ../shared/data/measured/)")
    rows, skipped = [], collections.Counter()
    with path.open(newline="") as f:
        for r in csv.DictReader(f):
            if r["dataset"] != "amaris_nca":
                skipped[r["dataset"]] += 1
                continue
            if r["kernel"] not in KERNELS:
                skipped[r["kernel"]] += 1
                continue
            defines = dict(d.split("=", 1) for d in r["compile_defines"].split(";") if "=" in d)
            rows.append({
                "gpu_name": r["gpu"],
                "kernel": r["kernel"],
                "entry": r["entry"],
                "T": int(defines["Tile_Width"]),
                "N": int(r["N"]),
                "grid": (int(r["grid_x"]), int(r["grid_y"]), int(r["grid_z"])),
                "block": (int(r["block_x"]), int(r["block_y"]), int(r["block_z"])),
                "regs": int(r["regs_per_thread"]),
                "smem": int(r["static_smem_bytes"]),
                "time_us": float(r["time_us"]),
                "samples": int(r["n_samples"]),
            })
    return rows, skipped


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise Fail(f"`{' '.join(cmd)}` failed (exit {p.returncode}): {p.stderr.strip()}")
    return p


def gpu_profiles(warpsim: str, profiles_dir: Path | None) -> dict[str, dict]:
    """Profile by GPU name: the built-in profiles (`warpsim gpus --format json`), then the .toml
    files of profiles_dir (which win). Each: {"ref": id or path for the point list, "id", "clock_mhz",
    "launch_overhead_us"}."""
    out: dict[str, dict] = {}
    for p in json.loads(run([warpsim, "gpus", "--format", "json"]).stdout):
        out[p["name"]] = {"ref": p["id"], "id": p["id"], "clock_mhz": float(p["clock_mhz"]),
                          "launch_overhead_us": float(p.get("launch_overhead_us", 0.0))}
    if profiles_dir is not None:
        for toml in sorted(profiles_dir.glob("*.toml")):
            p = json.loads(run([warpsim, "gpus", str(toml.resolve()), "--format", "json"]).stdout)
            out[p["name"]] = {"ref": str(toml.resolve()), "id": p["id"],
                              "clock_mhz": float(p["clock_mhz"]),
                              "launch_overhead_us": float(p.get("launch_overhead_us", 0.0))}
    return out


def size_param(ptx: Path, entry: str) -> int:
    """Position of the size parameter of `entry` in the PTX file: its only .u32/.s32/.b32
    parameter, else SIZE_PARAM. The entry is found by its PTX name or, mangled, its short name."""
    text = ptx.read_text(errors="replace")
    for m in re.finditer(r"\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\)", text):
        name = m.group(1)
        if name != entry and not re.fullmatch(rf"_Z{len(entry)}{re.escape(entry)}\w*", name):
            continue
        types = re.findall(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)", m.group(2))
        ints = [i for i, t in enumerate(types) if t in ("u32", "s32", "b32")]
        return ints[0] if len(ints) == 1 else SIZE_PARAM
    raise Fail(f"{ptx}: no .entry named {entry}")


def ptx_path(ptx_dir: Path, kernel: str, tile: int | None) -> Path:
    return ptx_dir / (f"{kernel}-T{tile}.ptx" if tile is not None else f"{kernel}.ptx")


# --- The sweep --------------------------------------------------------------------------------

def workload_name(r: dict) -> str:
    name = f"{r['kernel']}-T{r['T']}-N{r['N']}"
    if r["grid"] != lib.expected_launch(r["kernel"], r["T"], r["N"])[0]:
        name += "-g" + "x".join(map(str, r["grid"]))
    if USE_REGS:
        name += f"-r{r['regs']}"
    return name


POINT_COLUMNS = ["workload", "gpu", "kernel", "entry", "grid", "block", "tp_us", "tm", "regs"]


def point_list(rows: list[dict], refs: dict[str, str], ptx_dir: Path) -> list[dict]:
    """One point per (GPU, workload) the data measured, each at its own launch: only what is
    compared (a suite is GPUs x workloads: 2.3 times as many points, mostly never measured).
    refs maps a row's GPU name to the profile as `sweep --points` takes it (id or .toml path)."""
    points: dict[tuple[str, str], dict] = {}
    for r in rows:
        key = (r["gpu"], workload_name(r))
        if key in points:
            continue
        ptx = ptx_path(ptx_dir, r["kernel"], r["T"])
        g, b = r["grid"], r["block"]
        points[key] = {"workload": key[1], "gpu": refs[r["gpu_name"]], "kernel": str(ptx.resolve()),
                       "entry": r["entry"], "grid": "x".join(map(str, g)), "block": "x".join(map(str, b)),
                       "tp_us": "0", "tm": "" if TM is None else f"{TM:g}",
                       "regs": str(r["regs"]) if USE_REGS else "",
                       f"param:{size_param(ptx, r['entry'])}": str(r["N"]), "_gpu_id": r["gpu"]}
    return list(points.values())


def write_point_list(path: Path, points: list[dict]) -> None:
    params = sorted({k for p in points for k in p if k.startswith("param:")})
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(POINT_COLUMNS + params)
        for p in points:
            w.writerow([p.get(c, "") for c in POINT_COLUMNS + params])


def read_sweep(path: Path, points: list[dict]) -> dict[tuple[str, str], dict]:
    """The predictions by (GPU id, workload): `sweep --points` writes one row per point, in order."""
    with path.open(newline="") as f:
        out_rows = list(csv.DictReader(f))
    if len(out_rows) != len(points):
        raise Fail(f"{path}: {len(out_rows)} predictions for {len(points)} points")
    out = {}
    for p, s in zip(points, out_rows):
        if s["workload"] != p["workload"]:
            raise Fail(f"{path}: prediction {s['workload']} where {p['workload']} was asked")
        out[(p["_gpu_id"], p["workload"])] = {
            "cycles": float(s["cycles_per_launch"]),
            "time_us": float(s["time_us"]),
            "launch_time_us": float(s["launch_time_us"]),
        }
    return out


# --- The experiment ---------------------------------------------------------------------------

def held_out_sizes(rows: list[dict]) -> None:
    """X: per (GPU, kernel, T), fit on even positions by N, predict the odd ones. Sets
    r["role"] ("fit" / "held-out"), r["x_model"], r["x_base"] (held-out rows only) and records
    each group's fitted constants in r["x_fit"]."""
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["gpu_name"], r["kernel"], r["T"])].append(r)
    for key, g in groups.items():
        fit, held = lib.alternate_split(g, key=lambda r: r["N"])
        tp, inv_f = lib.fit_line_relative([r["cycles"] for r in fit], [r["time_us"] for r in fit])
        a, b = lib.fit_line_relative([lib.work_of(r["kernel"], r["N"]) for r in fit],
                                     [r["time_us"] for r in fit])
        for r in fit:
            r["role"] = "fit"
        for r in held:
            r["role"] = "held-out"
            r["x_model"] = tp + inv_f * r["cycles"]
            r["x_base"] = a + b * lib.work_of(r["kernel"], r["N"])
        for r in g:
            r["x_fit"] = (tp, (1.0 / inv_f) if inv_f > 0 else math.inf)


def leave_one_kernel_out(rows: list[dict]) -> dict[tuple[str, str], tuple[float, float]]:
    """Y: per GPU and kernel K, fit one (t_p, F_eff) on the GPU's other kernels, predict K."""
    by_gpu = collections.defaultdict(list)
    for r in rows:
        by_gpu[r["gpu_name"]].append(r)
    fits = {}
    for gpu, g in by_gpu.items():
        for k in sorted({r["kernel"] for r in g}):
            train = [r for r in g if r["kernel"] != k]
            if not train:
                continue
            tp, inv_f = lib.fit_line_relative([r["cycles"] for r in train],
                                              [r["time_us"] for r in train])
            fits[(gpu, k)] = (tp, (1.0 / inv_f) if inv_f > 0 else math.inf)
            for r in g:
                if r["kernel"] == k:
                    r["y_model"] = tp + inv_f * r["cycles"]
    return fits


def err(rows: list[dict], col: str) -> tuple[float, int]:
    pts = [r for r in rows if col in r]
    return lib.mape([r[col] for r in pts], [r["time_us"] for r in pts]), len(pts)


def fmt(v: float) -> str:
    return "—" if math.isnan(v) else f"{v:.1f}"


def table(title: str, key_name: str, keys: list, rows: list[dict], key_of) -> list[str]:
    out = [f"### {title}", "",
           f"| {key_name} | rows | held-out | X model % | X baseline % | Y model % | raw model % |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for k in keys + ["all"]:
        sel = rows if k == "all" else [r for r in rows if key_of(r) == k]
        xm, n = err(sel, "x_model")
        xb, _ = err(sel, "x_base")
        ym, _ = err(sel, "y_model")
        raw, _ = err(sel, "raw_model")
        label = "**all**" if k == "all" else (f"{k[0]} T={k[1]}" if isinstance(k, tuple) else str(k))
        out.append(f"| {label} | {len(sel)} | {n} | {fmt(xm)} | {fmt(xb)} | {fmt(ym)} | {fmt(raw)} |")
    return out + [""]


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def evaluate(warpsim: str, out: Path, name: str, rows: list[dict], col: str, charts: bool) -> str:
    """Runs `warpsim evaluate` on the predictions in column col (keys gpu, workload = kernel, T,
    N; x = N) and returns its text output; charts go to out/charts/<name>/."""
    pts = [r for r in rows if col in r]
    pred, meas = out / f"{name}-predicted.csv", out / f"{name}-measured.csv"
    write_csv(pred, ["gpu", "workload", "T", "N", "time_us"],
              [[r["gpu"], r["kernel"], r["T"], r["N"], repr(r[col])] for r in pts])
    write_csv(meas, ["gpu", "workload", "T", "N", "time_us", "samples"],
              [[r["gpu"], r["kernel"], r["T"], r["N"], repr(r["time_us"]), r["samples"]] for r in pts])
    cmd = [warpsim, "evaluate", str(pred), str(meas), "--keys", "gpu,workload,T,N", "--x", "N"]
    if charts:
        cdir = out / "charts" / name
        if cdir.exists():
            shutil.rmtree(cdir)
        cmd += ["--charts", str(cdir)]
    text = run(cmd).stdout
    (out / f"{name}-evaluate.txt").write_text(text)
    return text


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ptx_dir", nargs="?", type=Path, default=None,
                    help="PTX to use: <kernel>-T<Tile_Width>.ptx per kernel (default: the "
                         "committed workloads/measured/ptx/)")
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "measured",
                    help="folder with measured.csv (default: ../shared/data/measured/)")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "validation",
                    help="output folder (default build/validation/)")
    ap.add_argument("--warpsim", default=None, help="the warpsim executable (default: build/release/warpsim, else PATH)")
    ap.add_argument("--profiles", type=Path, default=None,
                    help="extra GPU profiles (*.toml), matched to the data's GPUs by `name`")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="sweep threads (default 2)")
    ap.add_argument("--no-charts", action="store_true", help="skip evaluate's SVG charts")
    ap.add_argument("--model", default=None, help="the timing model of every prediction (warpsim sweep --model; default: warpsim's default, pipes)")
    args = ap.parse_args(argv)

    t0 = time.monotonic()
    warpsim = args.warpsim
    if warpsim is None:
        built = ROOT / "build" / "release" / "warpsim"
        warpsim = str(built) if built.is_file() else shutil.which("warpsim")
    if not warpsim or not Path(warpsim).is_file():
        raise Fail("warpsim executable not found: build it (cmake --preset release && cmake --build --preset release) or pass --warpsim")
    model = args.model or warpsim_binary.default_model(warpsim)  # the generated point list names none
    ptx_dir = args.ptx_dir or ROOT / "workloads" / "measured" / "ptx"
    if not ptx_dir.is_dir():
        raise Fail(f"{ptx_dir}: not a folder")

    rows, skipped = read_rows(args.data)
    log(f"validate: {len(rows)} amaris_nca rows of {len(KERNELS)} kernels; skipped "
        + ", ".join(f"{k} ({v})" for k, v in sorted(skipped.items())))

    # PTX for every (kernel, Tile_Width) of the data.
    missing = sorted({str(ptx_path(ptx_dir, r["kernel"], r["T"])) for r in rows
                      if not ptx_path(ptx_dir, r["kernel"], r["T"]).is_file()})
    if missing:
        raise Fail(f"missing PTX ({len(missing)} files): " + ", ".join(missing)
                   + f" (PTX_DIR must hold <kernel>-T<Tile_Width>.ptx for every kernel and Tile_Width measured)")

    # Launches against the README's formulas (the rows' own launches are simulated either way).
    off = [r for r in rows if (r["grid"], r["block"]) != lib.expected_launch(r["kernel"], r["T"], r["N"])]
    log(f"validate: {len(off)} rows whose grid/block differ from the launch formula")

    # GPUs: profile by name.
    profiles = gpu_profiles(warpsim, args.profiles)
    names = sorted({r["gpu_name"] for r in rows})
    unmapped = [n for n in names if n not in profiles]
    if unmapped:
        n_un = sum(1 for r in rows if r["gpu_name"] in unmapped)
        log(f"validate: WARNING: no warpsim profile named {unmapped}: their {n_un} rows are left out")
        rows = [r for r in rows if r["gpu_name"] not in unmapped]
        names = [n for n in names if n not in unmapped]
    if not rows:
        raise Fail("no GPU of the data has a warpsim profile (`warpsim gpus`; --profiles DIR adds some)")
    for r in rows:
        r["gpu"] = profiles[r["gpu_name"]]["id"]

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="warpsim-validate-") as tmp:
        listed, pred = Path(tmp) / "points.csv", Path(tmp) / "pred.csv"
        points = point_list(rows, {n: profiles[n]["ref"] for n in names}, ptx_dir)
        write_point_list(listed, points)
        log(f"validate: predicting {len(points)} points (GPU, workload) of {len(names)} GPUs with -j {args.jobs}")
        t1 = time.monotonic()
        p = run([warpsim, "sweep", "--points", str(listed), "-o", str(pred), "-j", str(args.jobs), "--quiet"]
                + (["--model", args.model] if args.model else []))
        if p.stderr.strip():  # the PTX frontend's warnings, once per workload
            log(p.stderr.rstrip())
        sweep_s = time.monotonic() - t1
        shutil.copy(listed, args.out / "points.csv")
        shutil.copy(pred, args.out / "sweep.csv")
        swept = read_sweep(pred, points)
    log(f"validate: sweep took {sweep_s:.1f} s")

    for r in rows:
        s = swept[(r["gpu"], workload_name(r))]
        r["cycles"] = s["cycles"]
        p = profiles[r["gpu_name"]]
        r["raw_model"] = p["launch_overhead_us"] + s["cycles"] / p["clock_mhz"]

    held_out_sizes(rows)
    loko = leave_one_kernel_out(rows)

    x_model, n_x = err(rows, "x_model")
    x_base, _ = err(rows, "x_base")
    y_model, n_y = err(rows, "y_model")
    raw, _ = err(rows, "raw_model")

    # Tables.
    kernels = [k for k in KERNELS if any(r["kernel"] == k for r in rows)]
    gpu_ids = [profiles[n]["id"] for n in names]
    tile_keys = sorted({(r["kernel"], r["T"]) for r in rows}, key=lambda kt: (KERNELS.index(kt[0]), kt[1]))
    md = ["# Validation on measured times", "",
          f"Model: {'paper model, t_m = %g' % TM if TM is not None else model + ' model (no t_m)'}"
          f"{', registers per thread from the data' if USE_REGS else ''}; PTX from `{ptx_dir}`.",
          f"{len(rows)} rows, {len(names)} GPUs, {len(kernels)} kernels; sweep {sweep_s:.0f} s.", "",
          "X: per GPU, kernel and Tile_Width, fit on every other size, predict the rest "
          f"({n_x} held-out rows). Y: per GPU, fit on all other kernels, predict the kernel left "
          f"out ({n_y} rows; no straight-line baseline applies across kernels). Raw: no fit at "
          "all (t_p = the profile's launch_overhead_us or 0, F = the profile's clock_mhz).", "",
          f"**X model {x_model:.1f}% (baseline {x_base:.1f}%), Y model {y_model:.1f}%, raw {raw:.1f}%**", ""]
    md += table("Per kernel", "kernel", kernels, rows, lambda r: r["kernel"])
    md += table("Per GPU", "GPU", gpu_ids, rows, lambda r: r["gpu"])
    md += table("Per kernel and Tile_Width", "kernel, T", tile_keys, rows,
                lambda r: (r["kernel"], r["T"]))
    # Per kernel and GPU: X model / X baseline / Y.
    md += ["### Per kernel and GPU (X model / X baseline / Y model, %)", "",
           "| kernel | " + " | ".join(gpu_ids) + " |", "|---|" + "---:|" * len(gpu_ids)]
    for k in kernels:
        cells = []
        for g in gpu_ids:
            sel = [r for r in rows if r["kernel"] == k and r["gpu"] == g]
            cells.append("/".join(fmt(err(sel, c)[0]) for c in ("x_model", "x_base", "y_model"))
                         if sel else "")
        md.append(f"| {k} | " + " | ".join(cells) + " |")
    md.append("")
    md += ["### Leave-one-kernel-out fits (t_p us, F_eff MHz)", "",
           "| kernel left out | " + " | ".join(gpu_ids) + " |", "|---|" + "---:|" * len(gpu_ids)]
    for k in kernels:
        cells = []
        for n in names:
            f = loko.get((n, k))
            cells.append(f"{f[0]:.1f}, {f[1]:.0f}" if f else "")
        md.append(f"| {k} | " + " | ".join(cells) + " |")
    md.append("")

    results = args.out / "results.md"
    results.write_text("\n".join(md))
    write_csv(args.out / "predictions.csv",
              ["gpu", "gpu_name", "kernel", "T", "N", "grid", "block", "regs", "measured_us",
               "cycles", "raw_us", "role", "x_model_us", "x_baseline_us", "x_tp_us", "x_f_mhz",
               "y_model_us"],
              [[r["gpu"], r["gpu_name"], r["kernel"], r["T"], r["N"],
                ",".join(map(str, r["grid"])), ",".join(map(str, r["block"])), r["regs"],
                repr(r["time_us"]), repr(r["cycles"]), repr(r["raw_model"]), r["role"],
                repr(r["x_model"]) if "x_model" in r else "",
                repr(r["x_base"]) if "x_base" in r else "",
                repr(r["x_fit"][0]), repr(r["x_fit"][1]),
                repr(r["y_model"]) if "y_model" in r else ""] for r in rows])

    for name, col in (("heldout", "x_model"), ("heldout-baseline", "x_base"), ("loko", "y_model")):
        evaluate(warpsim, args.out, name, rows, col, charts=not args.no_charts)

    print("\n".join(md))
    log(f"validate: wrote {results}, {args.out / 'predictions.csv'}, evaluate output and "
        f"{'charts under ' + str(args.out / 'charts') if not args.no_charts else 'no charts'}; "
        f"{time.monotonic() - t0:.0f} s in all")
    print(SUMMARY_FORMAT.format(x=x_model, y=y_model))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"validate-measured: error: {e}", file=sys.stderr)
        sys.exit(2)
