#!/usr/bin/env python3
"""Pipe physics (docs/validation.md, "Pipe physics"): the pipes model against the throughput of
its own tables on kernels bound by one execution pipe.

    scripts/validate-pipes.sh [--warpsim PATH] [--model NAME] [--tables DIR] [--gpus ID,...]
                              [--classes C,...] [-j N] [--measured CSV [--measured-gpu ID]]
                              [--csv FILE] [--write-docs [FILE]]

For every built-in GPU profile (gpus/*.toml) of compute capability 7.0 or newer and every class of
the KERNELS table below, predicts the kernel of workloads/pipes/pipe_bound.ptx at LAUNCH with

    warpsim simulate workloads/pipes/pipe_bound.ptx --gpu ID --model pipes --format json
                     --kernel KERNEL --grid G --block 256 --param 0=ITERS

and compares the predicted time with the bound

    bound = work / (throughput x sm_count x clock_mhz)

where work is what the launch asks of the pipe (threads x ITERS x 64 instructions, x 2 results
for fp16x2; the tensor kernels: warps x ITERS x 64 mma instructions x M*N*K FMAs), throughput is
the pipe's entry in [throughput] of the table for the profile's compute capability
(--tables DIR/cc_X_Y.toml: results per clock per SM, tensor_*: dense FMAs per clock per SM), and
sm_count and clock_mhz are the profile's. Nothing is subtracted (no launch overhead). The target
(issue 34): every ratio predicted / bound within [1.0, 1.3].

Prints a Markdown table per (GPU, class) and a summary per class, and as its last line

    pipe physics (MODEL): N of M (GPU, class) within [1.0, 1.3] of the bound, K below it

--measured CSV adds the GPU timing harness's times (scripts/measure/pipes.sh: lines
`pipes,KERNEL,GRID,BLOCK,ITER,MS`) for --measured-gpu (default h100): a table of predicted,
bound and measured at the measured launches, with predicted / measured and measured / bound.
--write-docs writes the tables into docs/validation.md (or FILE) between the validate-pipes
markers. Exit status: 0 after a run (whatever the ratios), 1 when warpsim fails, 2 on bad input.
Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import io
import json
import statistics
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import warpsim_binary

ROOT = Path(__file__).resolve().parent.parent

# --- What is measured -----------------------------------------------------------------------------

# workloads/pipes/pipe_bound.cu: per loop iteration, CHAINS independent chains x DEPTH dependent
# steps = 64 instructions of the class per thread (each one warp-instruction per warp).
CHAINS, DEPTH = 8, 8
INSTRS_PER_ITER = CHAINS * DEPTH


@dataclass(frozen=True)
class Kernel:
    cls: str        # the class reported (one row per GPU and class)
    kernel: str     # .entry in pipe_bound.ptx
    pipe: str       # key of the table's [throughput] (include/warpsim/isa/pipes.hpp, to_string)
    per: str        # "thread": work counted per thread; "warp": per warp (the mma kernels)
    unit: int       # work per instruction: results (per thread) or FMAs (per warp)
    min_cc: tuple[int, int] = (7, 0)
    max_cc: tuple[int, int] = (99, 9)
    sass: str = ""  # what ptxas makes of the instruction (workloads/pipes/README.md)


# One row per (class, compute-capability range); a class has one kernel per compute capability.
KERNELS: list[Kernel] = [
    Kernel("fp32", "pipe_fp32", "fp32", "thread", 1, sass="FFMA"),
    Kernel("fp64", "pipe_fp64", "fp64", "thread", 1, sass="DFMA"),
    Kernel("sfu", "pipe_sfu", "sfu", "thread", 1, sass="MUFU.RSQ"),
    Kernel("int", "pipe_int", "int", "thread", 1, sass="LOP3 + SHF"),
    Kernel("imad", "pipe_imad", "imad", "thread", 1, sass="IMAD"),
    Kernel("fp16x2", "pipe_fp16x2", "fp16", "thread", 2, sass="HFMA2"),
    Kernel("tensor", "pipe_tensor", "tensor_f16", "warp", 16 * 8 * 16, min_cc=(8, 0), sass="HMMA.16816.F32"),
    Kernel("tensor", "pipe_tensor_k8", "tensor_f16", "warp", 16 * 8 * 8, max_cc=(7, 9), sass="HMMA.1688.F32"),
]
CLASSES = list(dict.fromkeys(k.cls for k in KERNELS))

# The launch: BLOCK threads per block, BLOCKS_PER_SM x sm_count blocks, ITERS loop iterations.
# 120 is a multiple of every residency these kernels have (3, 4, 5, 6 or 8 blocks of 256 threads
# per SM, by threads and registers), so the blocks always come in whole waves.
BLOCK = 256
BLOCKS_PER_SM = 120
ITERS = 1024
MIN_CC = (7, 0)
TARGET = (1.0, 1.3)

DOCS_BEGIN = "<!-- validate-pipes:begin (written by scripts/validate-pipes.sh --write-docs) -->"
DOCS_END = "<!-- validate-pipes:end -->"
DEFAULT_PTX = ROOT / "workloads/pipes/pipe_bound.ptx"


class BadInput(Exception):
    """Exit 2 with this one-line message."""


class WarpsimFailed(Exception):
    """Exit 1."""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    cc: tuple[int, int]
    sm_count: int
    clock_mhz: float


@dataclass(frozen=True)
class Launch:
    grid: int
    block: int
    iters: int


# --- Pure functions (tests/validation/validate_pipes_test.py) --------------------------------------

def parse_cc(text: str) -> tuple[int, int]:
    parts = str(text).strip().split(".")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise BadInput(f"compute capability {text!r} is not MAJOR.MINOR")
    return int(parts[0]), int(parts[1])


def load_profile(path: Path) -> Profile:
    try:
        with open(path, "rb") as f:
            t = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise BadInput(f"{path}: {e}") from None
    try:
        return Profile(path.stem, str(t.get("name", path.stem)), parse_cc(t["compute_capability"]),
                       int(t["sm_count"]), float(t["clock_mhz"]))
    except KeyError as e:
        raise BadInput(f"{path}: no {e.args[0]}") from None


def load_profiles(gpus_dir: Path, min_cc: tuple[int, int] = MIN_CC) -> list[Profile]:
    """The built-in profiles (DIR/*.toml) of compute capability min_cc or newer, by id."""
    paths = sorted(gpus_dir.glob("*.toml"))
    if not paths:
        raise BadInput(f"no GPU profiles (*.toml) in {gpus_dir}")
    return [p for p in map(load_profile, paths) if p.cc >= min_cc]


def table_path(tables: Path, cc: tuple[int, int]) -> Path:
    return tables / f"cc_{cc[0]}_{cc[1]}.toml"


def load_throughput(path: Path) -> dict[str, float]:
    """[throughput] of a pipes table: results (tensor_*: dense FMAs) per clock per SM, by pipe."""
    try:
        with open(path, "rb") as f:
            t = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"{path}: {e}") from None
    tp = t.get("throughput")
    if not isinstance(tp, dict):
        raise BadInput(f"{path}: no [throughput] table")
    out = {}
    for k, v in tp.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            raise BadInput(f"{path}: throughput.{k} = {v!r} is not a number >= 0")
        out[k] = float(v)
    return out


def kernel_for(cls: str, cc: tuple[int, int]) -> Kernel | None:
    for k in KERNELS:
        if k.cls == cls and k.min_cc <= cc <= k.max_cc:
            return k
    return None


def launch_for(p: Profile) -> Launch:
    return Launch(BLOCKS_PER_SM * p.sm_count, BLOCK, ITERS)


def work(k: Kernel, launch: Launch) -> float:
    """What the launch asks of the kernel's pipe: results, or FMAs for the tensor kernels."""
    threads = launch.grid * launch.block
    n = threads if k.per == "thread" else launch.grid * -(-launch.block // 32)
    return float(n) * launch.iters * INSTRS_PER_ITER * k.unit


def bound_us(k: Kernel, launch: Launch, p: Profile, throughput: float) -> float:
    """work / (throughput x sm_count x clock), in microseconds."""
    if throughput <= 0:
        raise BadInput(f"throughput of {k.pipe} is {throughput}: not a bound")
    return work(k, launch) / (throughput * p.sm_count * p.clock_mhz)


def within(ratio: float | None) -> bool:
    return ratio is not None and TARGET[0] <= ratio <= TARGET[1]


def summarize(rows: list[dict]) -> list[dict]:
    """Per class: rows, min/median/max of predicted / bound, how many within TARGET, below 1."""
    out = []
    for cls in CLASSES:
        rs = [r for r in rows if r["class"] == cls]
        if not rs:
            continue
        ratios = [r["ratio"] for r in rs if r.get("ratio") is not None]
        out.append({
            "class": cls, "rows": len(rs), "scored": len(ratios),
            "min": min(ratios) if ratios else None,
            "median": statistics.median(ratios) if ratios else None,
            "max": max(ratios) if ratios else None,
            "within": sum(within(x) for x in ratios),
            "below": sum(x < TARGET[0] for x in ratios),
        })
    return out


def last_line(model: str, rows: list[dict]) -> str:
    scored = [r for r in rows if r.get("ratio") is not None]
    n_in = sum(within(r["ratio"]) for r in scored)
    below = sum(r["ratio"] < TARGET[0] for r in scored)
    missing = len(rows) - len(scored)
    tail = f", {missing} not scored" if missing else ""
    return (f"pipe physics ({model}): {n_in} of {len(rows)} (GPU, class) within "
            f"[{TARGET[0]:g}, {TARGET[1]:g}] of the bound, {below} below it{tail}")


def _f(x: float | None, fmt: str, none: str = "-") -> str:
    return none if x is None else format(x, fmt)


def render(rows: list[dict], summary: list[dict], model: str, measured: list[dict] | None = None,
           measured_gpu: str | None = None) -> str:
    """The Markdown tables: per class, per (GPU, class), and measured rows if any."""
    out = io.StringIO()
    w = out.write
    w(f"Model `{model}`; launch: {BLOCKS_PER_SM} x sm_count blocks of {BLOCK} threads, "
      f"{ITERS} iterations of {INSTRS_PER_ITER} instructions per thread; ratio = predicted / bound.\n\n")
    w("#### Per class\n\n")
    w(f"| class | GPUs | min ratio | median ratio | max ratio | within [{TARGET[0]:g}, {TARGET[1]:g}] | below 1.0 |\n")
    w("|---|---:|---:|---:|---:|---:|---:|\n")
    for s in summary:
        w(f"| {s['class']} | {s['rows']} | {_f(s['min'], '.3f')} | {_f(s['median'], '.3f')} | "
          f"{_f(s['max'], '.3f')} | {s['within']} of {s['rows']} | {s['below']} |\n")
    w("\n#### Per GPU and class\n\n")
    has_meas = any(r.get("measured_us") for r in rows)
    w("| GPU (profile) | CC | class | kernel | throughput /clk/SM | predicted us | bound us | ratio |"
      + (" measured us | predicted / measured |" if has_meas else "") + "\n")
    w("|---|---|---|---|---:|---:|---:|---:|" + ("---:|---:|" if has_meas else "") + "\n")
    for r in rows:
        w(f"| {r['gpu']} | {r['cc']} | {r['class']} | {r['kernel'] or '-'} | {_f(r['throughput'], 'g')} | "
          f"{_f(r['predicted_us'], '.1f')} | {_f(r['bound_us'], '.1f')} | {_f(r['ratio'], '.3f')}"
          f"{' (' + r['note'] + ')' if r.get('note') else ''} |")
        if has_meas:
            meas = r.get("measured_us")
            pm = r["predicted_us"] / meas if meas and r["predicted_us"] else None
            w(f" {_f(meas, '.1f')} | {_f(pm, '.3f')} |")
        w("\n")
    if measured:
        w(f"\n#### Measured on {measured_gpu}\n\n")
        w("| kernel | grid | block | iters | measured us | predicted us | bound us | predicted / measured | measured / bound |\n")
        w("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for m in measured:
            pm = m["predicted_us"] / m["measured_us"] if m.get("predicted_us") and m["measured_us"] else None
            mb = m["measured_us"] / m["bound_us"] if m.get("bound_us") else None
            w(f"| {m['kernel']} | {m['grid']} | {m['block']} | {m['iters']} | {m['measured_us']:.1f} | "
              f"{_f(m.get('predicted_us'), '.1f')} | {_f(m.get('bound_us'), '.1f')} | {_f(pm, '.3f')} | {_f(mb, '.3f')} |\n")
    w("\n" + last_line(model, rows) + "\n")
    return out.getvalue()


def write_docs(path: Path, text: str) -> None:
    """Replaces what is between the validate-pipes markers of PATH with TEXT."""
    try:
        doc = path.read_text()
    except OSError as e:
        raise BadInput(f"--write-docs: {e}") from None
    b, e = doc.find(DOCS_BEGIN), doc.find(DOCS_END)
    if b < 0 or e < b:
        raise BadInput(f"--write-docs: {path} has no '{DOCS_BEGIN}' ... '{DOCS_END}' markers")
    path.write_text(doc[:b + len(DOCS_BEGIN)] + "\n" + text.rstrip("\n") + "\n" + doc[e:])


def parse_measured(text: str, source: str = "measured CSV") -> list[dict]:
    """Lines `pipes,KERNEL,GRID,BLOCK,ITER,MS` (scripts/measure/pipes.cu); '#' lines and a header
    line `bench,kernel,...` are skipped. MS becomes measured_us."""
    known = {k.kernel for k in KERNELS}
    rows = []
    for n, rec in enumerate(csv.reader(io.StringIO(text)), 1):
        if not rec or rec[0].startswith("#") or rec[0] == "bench":
            continue
        if rec[0] != "pipes" or len(rec) != 6:
            raise BadInput(f"{source}:{n}: expected pipes,KERNEL,GRID,BLOCK,ITER,MS, got {','.join(rec)!r}")
        if rec[1] not in known:
            raise BadInput(f"{source}:{n}: unknown kernel {rec[1]!r}")
        try:
            grid, block, iters, ms = int(rec[2]), int(rec[3]), int(rec[4]), float(rec[5])
        except ValueError:
            raise BadInput(f"{source}:{n}: GRID, BLOCK, ITER must be integers and MS a number") from None
        if min(grid, block, iters) <= 0 or not ms > 0:
            raise BadInput(f"{source}:{n}: non-positive value")
        rows.append({"kernel": rec[1], "grid": grid, "block": block, "iters": iters, "measured_us": ms * 1e3})
    if not rows:
        raise BadInput(f"{source}: no pipes rows")
    return rows


# --- Running warpsim ------------------------------------------------------------------------------

def find_warpsim(given: str | None) -> str:
    """--warpsim, else the newer of build/release/warpsim and build/ci/warpsim, else PATH's."""
    found = warpsim_binary.find_warpsim(given)
    if found is None:
        raise BadInput(warpsim_binary.missing_message(given))
    return found


def simulate_cmd(warpsim: str, model: str, ptx: Path, gpu: str, kernel: str, launch: Launch) -> list[str]:
    return [warpsim, "simulate", str(ptx), "--gpu", gpu, "--model", model, "--format", "json",
            "--kernel", kernel, "--grid", str(launch.grid), "--block", str(launch.block),
            "--param", f"0={launch.iters}"]


def predict_us(cmd: list[str]) -> float:
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise WarpsimFailed(f"`{' '.join(cmd)}` failed (exit {p.returncode}): {p.stderr.strip()[:500]}")
    try:
        return float(json.loads(p.stdout)["time_us"])
    except (ValueError, KeyError, TypeError):
        raise WarpsimFailed(f"`{' '.join(cmd)}`: no time_us in its JSON output") from None


def plan(profiles: list[Profile], tables: Path, classes: list[str]) -> list[dict]:
    """One row per (GPU, class): kernel, launch, throughput and bound; or why it has none."""
    rows = []
    for p in profiles:
        tpath = table_path(tables, p.cc)
        tp = load_throughput(tpath) if tpath.is_file() else None
        for cls in classes:
            k = kernel_for(cls, p.cc)
            r = {"gpu": p.id, "cc": f"{p.cc[0]}.{p.cc[1]}", "class": cls, "kernel": k.kernel if k else None,
                 "launch": launch_for(p), "throughput": None, "bound_us": None, "predicted_us": None,
                 "ratio": None, "note": ""}
            if k is None:
                r["note"] = "no kernel for this CC"
            elif tp is None:
                r["note"] = f"no table {tpath.name}"
            elif k.pipe not in tp:
                r["note"] = f"no throughput.{k.pipe} in {tpath.name}"
            elif tp[k.pipe] <= 0:
                r["note"] = f"throughput.{k.pipe} = 0"
            else:
                r["throughput"] = tp[k.pipe]
                r["bound_us"] = bound_us(k, r["launch"], p, tp[k.pipe])
            rows.append(r)
    return rows


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        raise BadInput(message)


def main(argv: list[str] | None = None) -> int:
    ap = _Parser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warpsim", help="warpsim binary (default: the newer of build/release and build/ci, else PATH)")
    ap.add_argument("--model", default="pipes", help="timing model (default pipes; memory for the baseline)")
    ap.add_argument("--tables", default=str(ROOT / "gpus/pipes"), help="pipes tables cc_X_Y.toml (default gpus/pipes)")
    ap.add_argument("--gpus-dir", default=str(ROOT / "gpus"), help=argparse.SUPPRESS)
    ap.add_argument("--ptx", default=str(DEFAULT_PTX), help="the kernels (default workloads/pipes/pipe_bound.ptx)")
    ap.add_argument("--gpus", help="comma-separated profile ids (default: every built-in profile of CC >= 7.0)")
    ap.add_argument("--classes", help=f"comma-separated classes (default: {','.join(CLASSES)})")
    ap.add_argument("-j", type=int, default=2, help="warpsim runs at once (default 2)")
    ap.add_argument("--measured", help="CSV of scripts/measure/pipes.sh (pipes,KERNEL,GRID,BLOCK,ITER,MS)")
    ap.add_argument("--measured-gpu", default="h100", help="profile the --measured CSV was measured on (default h100)")
    ap.add_argument("--csv", help="also write every row as CSV to FILE")
    ap.add_argument("--write-docs", nargs="?", const=str(ROOT / "docs/validation.md"), metavar="FILE",
                    help="replace the tables between the validate-pipes markers of FILE (default docs/validation.md)")
    try:
        a = ap.parse_args(argv)
        if a.j < 1:
            raise BadInput("-j must be >= 1")
        ptx = Path(a.ptx)
        if not ptx.is_file():
            raise BadInput(f"no PTX file {ptx}")
        tables = Path(a.tables)
        if not tables.is_dir() or not any(tables.glob("cc_*_*.toml")):
            raise BadInput(f"no pipes tables (cc_X_Y.toml) in {tables}: pass --tables DIR")
        all_profiles = load_profiles(Path(a.gpus_dir), (0, 0))
        by_id = {p.id: p for p in all_profiles}
        if a.gpus:
            ids = [g.strip() for g in a.gpus.split(",") if g.strip()]
            unknown = [g for g in ids if g not in by_id]
            if unknown:
                raise BadInput(f"unknown GPU profile(s) {', '.join(unknown)} (see `warpsim gpus`)")
            old = [g for g in ids if by_id[g].cc < MIN_CC]
            if old:
                raise BadInput(f"{', '.join(old)}: compute capability below 7.0 (no pipes tables)")
            profiles = [by_id[g] for g in ids]
        else:
            profiles = [p for p in all_profiles if p.cc >= MIN_CC]
        classes = CLASSES
        if a.classes:
            classes = [c.strip() for c in a.classes.split(",") if c.strip()]
            bad = [c for c in classes if c not in CLASSES]
            if bad:
                raise BadInput(f"unknown class(es) {', '.join(bad)} (known: {', '.join(CLASSES)})")
        measured = None
        if a.measured:
            if a.measured_gpu not in by_id or by_id[a.measured_gpu].cc < MIN_CC:
                raise BadInput(f"--measured-gpu {a.measured_gpu}: not a built-in profile of CC >= 7.0")
            try:
                measured = parse_measured(Path(a.measured).read_text(), a.measured)
            except OSError as e:
                raise BadInput(f"--measured: {e}") from None
        warpsim = find_warpsim(a.warpsim)
        rows = plan(profiles, tables, classes)

        # Predictions: every row with a kernel (the bound is not needed to predict), and the
        # measured launches.
        jobs: dict[tuple, list[str]] = {}
        for r in rows:
            if r["kernel"]:
                key = (r["gpu"], r["kernel"], r["launch"])
                jobs[key] = simulate_cmd(warpsim, a.model, ptx, r["gpu"], r["kernel"], r["launch"])
        if measured:
            mp = by_id[a.measured_gpu]
            tpath = table_path(tables, mp.cc)
            mtp = load_throughput(tpath) if tpath.is_file() else {}
            for m in measured:
                k = next(k for k in KERNELS if k.kernel == m["kernel"])
                launch = Launch(m["grid"], m["block"], m["iters"])
                m["launch"] = launch
                m["bound_us"] = bound_us(k, launch, mp, mtp[k.pipe]) if mtp.get(k.pipe) else None
                jobs[(mp.id, k.kernel, launch)] = simulate_cmd(warpsim, a.model, ptx, mp.id, k.kernel, launch)
        print(f"validate-pipes: {len(jobs)} warpsim runs ({a.model}), {len(profiles)} GPUs", file=sys.stderr)
        results: dict[tuple, float] = {}
        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            futs = {ex.submit(predict_us, cmd): key for key, cmd in jobs.items()}
            for f in concurrent.futures.as_completed(futs):
                results[futs[f]] = f.result()
        for r in rows:
            if r["kernel"]:
                r["predicted_us"] = results[(r["gpu"], r["kernel"], r["launch"])]
                if r["bound_us"]:
                    r["ratio"] = r["predicted_us"] / r["bound_us"]
        if measured:
            for m in measured:
                m["predicted_us"] = results[(a.measured_gpu, m["kernel"], m["launch"])]
            # The main table's rows of that GPU at the same launch get the measured time too.
            for r in rows:
                if r["gpu"] == a.measured_gpu:
                    for m in measured:
                        if m["kernel"] == r["kernel"] and m["launch"] == r["launch"]:
                            r["measured_us"] = m["measured_us"]

        text = render(rows, summarize(rows), a.model, measured, a.measured_gpu if measured else None)
        print(text, end="")
        if a.csv:
            with open(a.csv, "w", newline="") as f:
                cw = csv.writer(f)
                cw.writerow(["gpu", "cc", "class", "kernel", "grid", "block", "iters", "throughput",
                             "predicted_us", "bound_us", "ratio", "measured_us", "predicted_over_measured", "note"])
                for r in rows:
                    meas = r.get("measured_us")
                    cw.writerow([r["gpu"], r["cc"], r["class"], r["kernel"] or "", r["launch"].grid,
                                 r["launch"].block, r["launch"].iters, _f(r["throughput"], "g", ""),
                                 _f(r["predicted_us"], ".3f", ""), _f(r["bound_us"], ".3f", ""),
                                 _f(r["ratio"], ".4f", ""), _f(meas, ".3f", ""),
                                 _f(r["predicted_us"] / meas if meas and r["predicted_us"] else None, ".4f", ""),
                                 r["note"]])
        if a.write_docs:
            write_docs(Path(a.write_docs), text)
            print(f"validate-pipes: wrote the tables into {a.write_docs}", file=sys.stderr)
        return 0
    except BadInput as e:
        print(f"validate-pipes: error: {e}", file=sys.stderr)
        return 2
    except WarpsimFailed as e:
        print(f"validate-pipes: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
