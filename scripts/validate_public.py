#!/usr/bin/env python3
"""Validation of warpsim on published measurements of public kernels on current GPUs
(docs/validation.md, "Public measurements on current GPUs").

    scripts/validate-public.sh [--repos DIR] [--data DIR] [--recipes FILE] [--out DIR]
                               [--warpsim PATH] [-j N] [--no-charts] [--write-docs FILE]

Reads ../shared/data/public/rows.csv, and for every row its recipe
(scripts/validate-public/recipes.toml) names: takes the public repository at the recorded commit
(a local copy under --repos DIR, else a clone into OUT/repos), builds the kernel's file to PTX for
the GPU's architecture (sm_75 at the least) in OUT/build, and predicts the row with its exact
grid, block and size parameters, uncalibrated (`warpsim sweep --points`, default model). Then it
scores the predictions per source, kernel family and GPU, writes OUT/results.csv (every row),
OUT/tables.md and `warpsim evaluate`'s ratio charts (OUT/charts/), and prints as its last line

    public measurements: N rows, M GPUs, mean error X%, rank correlation R

Needs nvcc, git and a warpsim binary (--warpsim, else the newer of build/release/warpsim and
build/ci/warpsim, else warpsim on PATH). Third-party sources and the PTX built from them stay in OUT, never in the
repository. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import json
import os
import re
import shutil
import sys
from pathlib import Path

import warpsim_binary

sys.path.insert(0, str(Path(__file__).resolve().parent))
import validate_public_lib as lib  # noqa: E402
import validate_public_recipes as recipes_mod  # noqa: E402
from public_repos import log, repository_at, run, write_region  # noqa: E402
from validate_public_lib import Fail, TimedOut  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS_BEGIN = "<!-- validate-public:begin (written by scripts/validate-public.sh --write-docs) -->"
DOCS_END = "<!-- validate-public:end -->"


def find_warpsim(given: str | None) -> str:
    """--warpsim, else the newer of build/release/warpsim and build/ci/warpsim, else PATH's."""
    found = warpsim_binary.find_warpsim(given)
    if found is None:
        raise Fail(warpsim_binary.missing_message(given))
    return found



# --- PTX ----------------------------------------------------------------------------------------

def translation_unit(src: Path, kernels: list[recipes_mod.Kernel], file: str, tu_dir: Path) -> Path:
    """The file to give nvcc: a .cu as it is, or ours that includes a header between the
    kernels' prelude lines and their explicit instantiations."""
    path = src / file
    if not path.is_file():
        raise Fail(f"{file}: not in {src}")
    if path.suffix == ".cu" and not any(k.prelude or k.instantiate for k in kernels):
        return path
    lines = ["// Written by scripts/validate_public.py: the recipe's prelude, the file, its instantiations."]
    for k in kernels:
        lines += [ln for ln in k.prelude if ln not in lines]
    lines.append(f'#include "{path}"')
    for k in kernels:
        lines += [ln for ln in k.instantiate if ln not in lines]
    tu_dir.mkdir(parents=True, exist_ok=True)
    tu = tu_dir / (re.sub(r"[^A-Za-z0-9_.-]", "_", file) + ".cu")
    tu.write_text("\n".join(lines) + "\n")
    return tu


def build_ptx(tu: Path, src: Path, include_dirs: list[str], arch: str, ptx: Path) -> None:
    if ptx.is_file():
        return
    ptx.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["nvcc", "-ptx", f"-arch={arch}", "-o", str(ptx) + ".partial", str(tu)]
    cmd += [f"-I{src / d}" for d in include_dirs] + [f"-I{tu.parent}"]
    run(cmd, cwd=tu.parent)
    os.replace(str(ptx) + ".partial", ptx)


def entries(ptx: Path) -> dict[str, str]:
    """The PTX file's entries: normalised demangled name (no return type, no parameters, no
    spaces, no integer suffixes) -> the PTX name."""
    names = re.findall(r"^\s*(?:\.(?:visible|weak)\s+)?\.entry\s+([A-Za-z_$][\w$]*)", ptx.read_text(errors="replace"), re.M)
    filt = shutil.which("cu++filt") or shutil.which("c++filt")
    if filt is None:
        raise Fail("neither cu++filt nor c++filt is on PATH (binutils or the CUDA toolkit)")
    demangled = run([filt], input="\n".join(names) + "\n").stdout.splitlines()
    return {normalise_entry(d): n for n, d in zip(names, demangled)}


def normalise_entry(name: str) -> str:
    name = re.sub(r"^void\s+", "", name.strip())
    depth, cut = 0, len(name)
    for i, ch in enumerate(name):  # parameters start at the first '(' outside template brackets
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0:
            cut = i
            break
    return re.sub(r"(?<=\d)[uUlL]+\b", "", name[:cut].replace(" ", ""))


# --- Predictions --------------------------------------------------------------------------------

def predict(warpsim: str, group: list[recipes_mod.Planned], ptx: Path, entry: str, tmp: Path,
            timeout: float, model: str | None = None) -> dict[int, float]:
    """One `warpsim sweep --points` over the rows of one kernel build: row line -> time_us."""
    tmp.mkdir(parents=True, exist_ok=True)
    width = 1 + max((max(p.params) for p in group if p.params), default=-1)
    inputs = sorted({i for p in group if p.kernel for i in p.kernel.inputs})
    header = (["row", "gpu", "kernel", "entry", "grid", "block"] + [f"param:{i}" for i in range(width)]
              + [f"input:{i}" for i in inputs])
    points, out = tmp / "points.csv", tmp / "predicted.csv"
    with points.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for p in group:
            w.writerow([p.row["line"], p.profile, str(ptx), entry, "x".join(map(str, p.grid)),
                        "x".join(map(str, p.block))] + [p.params.get(i, "") for i in range(width)]
                       + [p.kernel.inputs.get(i, "") if p.kernel else "" for i in inputs])
    run([warpsim, "sweep", "--points", str(points), "-o", str(out), "-j", "1", "--quiet"]
        + (["--model", model] if model else []), timeout=timeout)
    with out.open(newline="") as f:
        return {int(r["row"]): float(r["time_us"]) for r in csv.DictReader(f)}


def gpu_facts(warpsim: str, ids: set[str]) -> dict[str, dict]:
    """Profile id -> its `warpsim gpus --format json` object, for the ids this warpsim has."""
    known = {p["id"]: p for p in json.loads(run([warpsim, "gpus", "--format", "json"]).stdout)}
    out = {}
    for i in ids:
        if i in known:
            out[i] = known[i]
        elif i.endswith(".toml") and Path(i).is_file():
            out[i] = json.loads(run([warpsim, "gpus", i, "--format", "json"]).stdout)
    return out


# --- Report -------------------------------------------------------------------------------------

def write_results(path: Path, planned: list[recipes_mod.Planned]) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["line", "source", "family", "kernel_name", "gpu", "profile", "arch", "size", "grid", "block",
                     "measured_us", "predicted_us", "ratio", "left_out"])
        for p in planned:
            r = p.row
            pred = p.predicted_us
            w.writerow([r["line"], p.source.id if p.source else "", p.kernel.family if p.kernel else "",
                        r["kernel_name"], r["gpu"], p.profile or "", p.arch or "", r["size"], r["grid"],
                        r["block"], repr(p.measured_us) if p.measured_us else "",
                        repr(pred) if pred is not None else "",
                        repr(pred / p.measured_us) if pred is not None else "", p.reason or ""])


def tables(points: list[dict], planned: list[recipes_mod.Planned], stand_ins: dict[str, str]) -> list[str]:
    out = lib.markdown_table("Per source", ["source"], lib.group_scores(points, lambda p: p["source"]))
    out += lib.markdown_table("Per kernel family", ["family"], lib.group_scores(points, lambda p: p["family"]))
    out += lib.markdown_table("Per GPU", ["GPU (profile)", "arch"],
                              lib.group_scores(points, lambda p: (p["gpu"], p["arch"])))
    left: dict[str, int] = {}
    for p in planned:
        if p.reason:
            left[p.reason] = left.get(p.reason, 0) + 1
    out += ["#### Rows left out", "", "| rows | reason |", "|---:|---|"]
    out += [f"| {n} | {reason} |" for reason, n in sorted(left.items(), key=lambda kv: -kv[1])] + [""]
    if stand_ins:
        out += ["Architectures standing in (nvcc 13 builds sm_75 and newer): " +
                ", ".join(f"`{g}` (CC {cc}) from sm_75 PTX" for g, cc in sorted(stand_ins.items())) + ".", ""]
    out.append(lib.summary_line(points))
    return out


def charts(warpsim: str, points: list[dict], out: Path) -> None:
    """`warpsim evaluate`'s ratio charts: one experiment per GPU and family, rows along x."""
    pred, meas = out / "evaluate-predicted.csv", out / "evaluate-measured.csv"
    for path, col in ((pred, "predicted_us"), (meas, "measured_us")):
        with path.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["gpu", "workload", "row", "time_us"])
            for p in points:
                w.writerow([p["gpu"], p["family"], p["line"], repr(p[col])])
    text = run([warpsim, "evaluate", str(pred), str(meas), "--keys", "gpu,workload,row", "--x", "row",
                "--charts", str(out / "charts")]).stdout
    (out / "evaluate.txt").write_text(text)


# --- Main ---------------------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="validate-public.sh", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "public",
                    help="folder with rows.csv (default ../shared/data/public)")
    ap.add_argument("--recipes", type=Path, default=ROOT / "scripts" / "validate-public" / "recipes.toml")
    ap.add_argument("--repos", type=Path, help="local copies of the public repositories (else they are cloned)")
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "validate-public")
    ap.add_argument("--warpsim", help="the warpsim binary")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds one kernel build's rows may take in warpsim (default 300); slower rows are left out with the reason")
    ap.add_argument("--no-charts", action="store_true", help="skip evaluate's SVG charts")
    ap.add_argument("--model", help="the timing model of every prediction (warpsim sweep --model; default: warpsim's default, pipes)")
    ap.add_argument("--write-docs", type=Path, help="replace the tables region of this file (docs/validation.md)")
    args = ap.parse_args(argv)
    if args.repos is not None and not args.repos.is_dir():
        raise Fail(f"--repos {args.repos}: not a folder")
    warpsim = find_warpsim(args.warpsim)
    if shutil.which("nvcc") is None:
        raise Fail("nvcc not found on PATH: the recipes build each kernel to PTX (CUDA toolkit)")
    recipes = recipes_mod.load_recipes(args.recipes)
    rows_path = args.data / "rows.csv"
    planned = [recipes_mod.plan_row(r, recipes, f"{rows_path}:{r['line']}") for r in recipes_mod.read_rows(rows_path)]
    args.out.mkdir(parents=True, exist_ok=True)

    facts = gpu_facts(warpsim, {p.profile for p in planned if p.profile})
    stand_ins: dict[str, str] = {}
    for p in planned:
        if p.reason is None and p.profile not in facts:
            p.reason = f"profile {p.profile} is not in this warpsim (`warpsim gpus`)"
        elif p.reason is None:
            arch, stand_in = lib.arch_for(facts[p.profile]["compute_capability"])
            p.arch = arch
            if stand_in:
                stand_ins[p.profile] = facts[p.profile]["compute_capability"]

    # One build per (repository, commit, file, arch); its kernels share the translation unit.
    builds: dict[tuple, list[recipes_mod.Planned]] = {}
    for p in planned:
        if p.reason is None:
            builds.setdefault((p.source.repository, p.commit, p.kernel.file, p.arch), []).append(p)
    log(f"validate-public: {sum(len(g) for g in builds.values())} of {len(planned)} rows to predict, "
        f"{len(builds)} builds")
    for (repository, commit) in sorted({(k[0], k[1]) for k in builds}):
        repository_at(repository, commit, args.repos, args.out)

    def build_and_predict(key: tuple, group: list[recipes_mod.Planned]) -> None:
        repository, commit, file, arch = key
        src = repository_at(repository, commit, args.repos, args.out)
        tag = f"{repository.replace('/', '+')}@{commit[:12]}"
        kernels = list({id(p.kernel): p.kernel for p in group}.values())
        tu = translation_unit(src, kernels, file, args.out / "build" / tag)
        ptx = args.out / "build" / tag / arch / (re.sub(r"[^A-Za-z0-9_.-]", "_", file) + ".ptx")
        include_dirs = sorted({d for k in kernels for d in k.include_dirs})
        try:
            build_ptx(tu, src, include_dirs, arch, ptx)
        except Fail as e:
            for p in group:
                p.reason = f"nvcc failed on {file} for {arch}: {str(e).splitlines()[-1][:200]}"
            return
        names = entries(ptx)
        for k in kernels:
            rows = [p for p in group if p.kernel is k]
            entry = names.get(normalise_entry(k.entry))
            if entry is None:
                for p in rows:
                    p.reason = f"no entry {k.entry} in {file} ({arch})"
                continue
            try:
                times = predict(warpsim, rows, ptx, entry, args.out / "predict" / tag / arch / entry, args.timeout,
                                args.model)
            except TimedOut as e:
                for p in rows:
                    p.reason = f"too slow to predict: {e} for this kernel's rows (--timeout)"
                continue
            except Fail as e:
                for p in rows:
                    p.reason = f"warpsim refused it: {str(e)[-300:]}"
                continue
            for p in rows:
                p.predicted_us = times[p.row["line"]]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for f in [pool.submit(build_and_predict, k, g) for k, g in builds.items()]:
            f.result()

    points = [{"line": p.row["line"], "source": p.source.id, "family": p.kernel.family, "gpu": p.profile,
               "arch": p.arch, "predicted_us": p.predicted_us, "measured_us": p.measured_us}
              for p in planned if p.reason is None and p.predicted_us is not None]
    write_results(args.out / "results.csv", planned)
    text = tables(points, planned, stand_ins)
    (args.out / "tables.md").write_text("\n".join(text) + "\n")
    if not args.no_charts and points:
        charts(warpsim, points, args.out)
    if args.write_docs:
        write_region(args.write_docs, DOCS_BEGIN, DOCS_END, text)
    log(f"validate-public: wrote {args.out / 'results.csv'}, {args.out / 'tables.md'}"
        + ("" if args.no_charts else f", charts under {args.out / 'charts'}"))
    print("\n".join(text))  # the summary line last
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Fail as e:
        print(f"validate-public: {e}", file=sys.stderr)
        sys.exit(2)
