#!/usr/bin/env python3
"""The corpus test of real PTX (docs/reliability.md, "The public-suite corpus"): builds every `.cu`
file of four public CUDA suites at pinned commits (scripts/corpus/suites.toml) to PTX, once per
build there, and predicts every kernel of it as a new user would:

    warpsim simulate FILE.ptx --kernel K --gpu GPU --grid 1024 --block 256 --ptxas none
                     --param I=256 (integers) --param I=1.0 (floats)

(a kernel that declares .reqntid, or a .maxntid below --block, at its own block, as a program
must launch it: CUDA refuses the launch otherwise, and warpsim does too).

Each run is timed whole process and classified predicted (exit 0), refused (exit 2, warpsim's
one-line error) or failed (an internal error, a crash, or still running at --timeout).

The fast path is checked against --emulate-all at every run (docs/reliability.md): every
predicted kernel at a small launch (--check-grid, default 4 blocks of the same block), and a
rotating seeded sample of them (--check-full N, default 20; --check-seed, default today's date)
at the full launch, both with --exact (no sampling) and each run limited to --check-limit
seconds (default 10): counted equal, different (counted as failed) or skipped (--emulate-all
refused or over the limit). --check-emulate-all S checks every kernel at the full launch. Writes OUT/results.csv (every
kernel, full precision; OUT/results.partial.csv while it runs), OUT/tables.md, and prints as its
last line

    corpus: N kernels, P predicted, R refused, F failed, slowest S s

OUT/ptx/ keeps the PTX (the fuzzers' long runs take seeds from it: scripts/fuzz.sh --long).
Needs nvcc, c++filt, git and a built warpsim. The suites' sources and PTX stay in OUT, never in
the repository. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import random
import concurrent.futures
import csv
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_lib as lib  # noqa: E402
import warpsim_binary  # noqa: E402
from public_repos import log, repository_at, run, write_region  # noqa: E402
from validate_public_lib import Fail  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DOCS_BEGIN = "<!-- corpus:begin (written by scripts/corpus.sh --write-docs) -->"
DOCS_END = "<!-- corpus:end -->"
FIELDS = ["suite", "build", "file", "kernel", "block", "outcome", "seconds", "cycles", "time_us", "sampled", "emulate_all",
          "small_check", "full_check", "message"]


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="scripts/corpus.sh", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repos", type=Path, help="local copies of the suites' repositories (else cloned into OUT/repos)")
    ap.add_argument("--out", type=Path, default=ROOT / "build/corpus", help="scratch folder (default build/corpus)")
    ap.add_argument("--suites", type=Path, default=ROOT / "scripts/corpus/suites.toml")
    ap.add_argument("--only", action="append", default=[], metavar="SUITE", help="this suite only (repeatable)")
    ap.add_argument("--warpsim", help="the binary (default: build/release or build/ci, the newer)")
    ap.add_argument("--gpu", default="rtx2080")
    ap.add_argument("--grid", default="1024")
    ap.add_argument("--block", default="256",
                    help="threads per block, X[,Y[,Z]] (default 256); a kernel's own .reqntid or smaller .maxntid wins")
    ap.add_argument("--model", help="timing model (default: warpsim's default, pipes)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per kernel before it counts as failed (default 10)")
    ap.add_argument("--check-emulate-all", type=float, default=0.0, metavar="S",
                    help="run each predicted kernel again with --emulate-all (limit S s) and compare")
    ap.add_argument("--check-grid", default="4", metavar="GRID",
                    help="the small launch's grid for the fast-path check of every kernel (default 4; 0: no check)")
    ap.add_argument("--check-full", type=int, default=20, metavar="N",
                    help="kernels checked at the full launch, a seeded sample (default 20)")
    ap.add_argument("--check-seed", type=int, default=int(time.strftime("%Y%m%d")),
                    help="the sample's seed (default: today's date, so each day checks others)")
    ap.add_argument("--check-limit", type=float, default=10.0, metavar="S",
                    help="seconds each checking run may take before the kernel counts as skipped (default 10)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1, help="parallel nvcc builds (default: the cores)")
    ap.add_argument("--run-jobs", type=int, default=1,
                    help="parallel warpsim runs (default 1, so each is timed on a machine otherwise idle)")
    ap.add_argument("--write-docs", type=Path, metavar="FILE", help="write the tables into FILE's corpus region")
    return ap.parse_args(argv)


def load_suites(path: Path, only: list[str]) -> tuple[list[dict], list[dict], list[str]]:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise Fail(f"{path}: {e}") from None
    suites, builds = data.get("suite", []), data.get("build", [])
    for s in suites:
        for key in ("name", "repository", "commit", "sources"):
            if key not in s:
                raise Fail(f"{path}: suite {s.get('name', '?')} has no `{key}`")
    unknown = set(only) - {s["name"] for s in suites}
    if unknown:
        raise Fail(f"--only {', '.join(sorted(unknown))}: no such suite in {path}")
    compat = data.get("compat", {}).get("flags", [])
    return [s for s in suites if not only or s["name"] in only], builds, compat


def source_files(src: Path, suite: dict) -> list[Path]:
    files = {p for pattern in suite["sources"] for p in src.glob(pattern)}
    for pattern in suite.get("exclude", []):
        files -= set(src.glob(pattern))
    return sorted(files)


def build_ptx(cu: Path, src: Path, suite: dict, flags: list[str], ptx: Path) -> bool:
    """True when nvcc made the PTX (kept from an earlier run when there)."""
    if ptx.is_file():
        return True
    failed = ptx.with_suffix(".failed")
    if failed.is_file():
        return False
    ptx.parent.mkdir(parents=True, exist_ok=True)
    cmd = ["nvcc", "-ptx", *flags, "-o", str(ptx) + ".partial", str(cu), f"-I{cu.parent}"]
    cmd += [f"-I{src / d}" for d in suite.get("include_dirs", [])]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cu.parent)
    if p.returncode != 0:
        failed.write_text(p.stderr[-4000:])
        return False
    os.replace(str(ptx) + ".partial", ptx)
    return True


def demangle(names: list[str]) -> list[str]:
    filt = shutil.which("cu++filt") or shutil.which("c++filt")
    if filt is None:
        raise Fail("neither cu++filt nor c++filt is on PATH (binutils or the CUDA toolkit)")
    return run([filt], input="\n".join(names) + "\n").stdout.splitlines()


def simulate(cmd: list[str], timeout: float) -> tuple[str, float, dict, str]:
    """outcome, seconds, the JSON result (when predicted), the last line of the error output."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "failed", time.monotonic() - start, {}, f"still running after {timeout:g} s (stopped)"
    seconds = time.monotonic() - start
    outcome = lib.classify(p.returncode, False)
    result = {}
    if outcome == "predicted":
        try:
            result = json.loads(p.stdout)
        except json.JSONDecodeError:
            return "failed", seconds, {}, "exit 0 but no JSON on stdout"
    message = lib.first_line(p.stderr)
    if outcome == "failed" and not message:
        message = f"exit {p.returncode}"
    return outcome, seconds, result, message


def check_fast_path(cmd: list[str], limit: float) -> tuple[str, str]:
    """The fast path (--exact: no sampling) against --emulate-all: equal, different or
    skipped (...), with a message for a difference."""
    outcome, _, fast, why = simulate(cmd + ["--exact"], limit)
    if outcome != "predicted":
        return f"skipped (fast path {outcome}: {why})", ""
    outcome, _, reference, why = simulate(cmd + ["--emulate-all"], limit)
    if outcome != "predicted":
        return f"skipped (--emulate-all {outcome}: {why})", ""
    if reference.get("cycles") == fast.get("cycles"):
        return "equal", ""
    return "different", f"fast path {fast.get('cycles')} cycles, --emulate-all {reference.get('cycles')}"


def predict_kernel(args: argparse.Namespace, warpsim: str, job: dict) -> dict:
    def command(grid: str) -> list[str]:
        cmd = [warpsim, "simulate", str(job["ptx"]), "--kernel", job["kernel"], "--gpu", args.gpu, "--grid", grid,
               "--block", job["block"], "--model", args.model, "--ptxas", "none"]
        for i, v in sorted(job["values"].items()):
            cmd += ["--param", f"{i}={v}"]
        return cmd
    cmd = command(args.grid)
    outcome, seconds, result, message = simulate(cmd, args.timeout)
    sampled = result.get("sampled")
    row = {"suite": job["suite"], "build": job["build"], "file": job["file"], "kernel": job["kernel"],
           "block": job["block"], "outcome": outcome, "seconds": seconds, "cycles": result.get("cycles", ""),
           "time_us": result.get("time_us", ""),
           "sampled": f"{sampled['blocks']} of {sampled['of_blocks']}" if sampled else "",
           "emulate_all": "", "small_check": "", "full_check": "", "message": message}
    for column, grid, wanted in (("small_check", args.check_grid, args.check_grid != "0"),
                                 ("full_check", args.grid, job.get("check_full", False))):
        if outcome != "predicted" or not wanted:
            continue
        row[column], why = check_fast_path(command(grid), args.check_limit)
        if why:
            row["outcome"], row["message"] = "failed", f"{column}: {why}"

    if outcome == "predicted" and args.check_emulate_all > 0:
        slow, _, reference, why = simulate(cmd + ["--emulate-all"], args.check_emulate_all)
        if slow != "predicted":
            row["emulate_all"] = "unchecked (" + (why or slow) + ")"
        elif reference.get("cycles") == result.get("cycles"):
            row["emulate_all"] = "equal"
        else:
            row["emulate_all"] = "different"
            row["outcome"] = "failed"
            row["message"] = f"fast path {result.get('cycles')} cycles, --emulate-all {reference.get('cycles')}"
    return row


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    suites, builds, compat = load_suites(args.suites, args.only)
    if shutil.which("nvcc") is None:
        raise Fail("nvcc is not on PATH: the corpus is built from CUDA sources (the CUDA toolkit)")
    found = warpsim_binary.find_warpsim(args.warpsim)
    if found is None:
        raise Fail(warpsim_binary.missing_message(args.warpsim))
    # A copy, so that a rebuild during the run (it takes a while) cannot change or break it.
    args.out.mkdir(parents=True, exist_ok=True)
    warpsim = str(args.out / "warpsim-under-test")
    shutil.copy2(found, warpsim)
    args.model = args.model or warpsim_binary.default_model(warpsim)  # named in the tables it writes
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j))

    compiles, not_built = [], 0
    for suite in suites:
        folders = sorted({p.split("/", 1)[0] for p in suite["sources"] + suite.get("include_dirs", [])})
        src = repository_at(suite["repository"], suite["commit"], args.repos, args.out, folders)
        files = source_files(src, suite)
        log(f"corpus: {suite['name']}: {len(files)} .cu files x {len(builds)} builds")
        for build in builds:
            for cu in files:
                rel = cu.relative_to(src)
                ptx = args.out / "ptx" / suite["name"] / build["name"] / rel.with_suffix(".ptx")
                compiles.append((suite, build, rel, ptx, pool.submit(build_ptx, cu, src, suite, build["flags"] + compat, ptx)))

    jobs = []
    for suite, build, rel, ptx, done in compiles:
        if not done.result():
            not_built += 1
            continue
        entries = lib.ptx_entries(ptx.read_text(errors="replace"))
        for entry, demangled in zip(entries, demangle([e.name for e in entries])):
            values = lib.parameter_values(entry, lib.cxx_argument_types(demangled))
            jobs.append({"suite": suite["name"], "build": build["name"], "file": str(rel), "ptx": ptx,
                         "kernel": entry.name, "block": lib.block_for(entry, args.block), "values": values})
    log(f"corpus: {len(jobs)} kernels in {len(compiles) - not_built} PTX files ({not_built} files did not compile)")
    for i in random.Random(args.check_seed).sample(range(len(jobs)), min(args.check_full, len(jobs))):
        jobs[i]["check_full"] = True

    pool.shutdown()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.run_jobs))
    results = []
    futures = [pool.submit(predict_kernel, args, warpsim, job) for job in jobs]
    # Each row as it comes, so that a run stopped early leaves what it did.
    with open(args.out / "results.partial.csv", "w", newline="") as partial:
        w = csv.DictWriter(partial, fieldnames=FIELDS)
        w.writeheader()
        for n, f in enumerate(concurrent.futures.as_completed(futures), 1):
            results.append(f.result())
            w.writerow({**results[-1], "seconds": repr(results[-1]["seconds"])})
            partial.flush()
            if n % 100 == 0 or n == len(futures):
                log(f"corpus: {n} of {len(futures)} kernels run")
    pool.shutdown()
    results.sort(key=lambda r: (r["suite"], r["build"], r["file"], r["kernel"]))

    with open(args.out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in results:
            w.writerow({**r, "seconds": repr(r["seconds"])})
    (args.out / "results.partial.csv").unlink()
    commits = ", ".join(f"{s['name']} ({s['repository']} @ {s['commit'][:10]})" for s in suites)
    text = [f"Suites: {commits}. Launch: `--gpu {args.gpu} --grid {args.grid} --block {args.block} "
            f"--model {args.model} --ptxas none` (a kernel that declares `.reqntid`, or a `.maxntid` below the "
            f"block, at its own: {sum(r['block'] != args.block for r in results)} kernels), integers 256, floats 1.0; builds: "
            + ", ".join(f"{b['name']} (`{' '.join(b['flags'])}`)" for b in builds) + ".", ""]
    text += lib.markdown(results, not_built, args.timeout,
                         checks=(f"{args.check_grid} x {args.block}", args.check_full, args.check_seed, args.check_limit))
    (args.out / "tables.md").write_text("\n".join(text) + "\n")
    if args.write_docs:
        write_region(args.write_docs, DOCS_BEGIN, DOCS_END, text)
    log(f"corpus: wrote {args.out / 'results.csv'} and {args.out / 'tables.md'}")
    print(lib.summary_line(results))
    return 0


def entry_point(argv: list[str]) -> None:
    """main, with bad input (Fail) as one line on stderr and exit status 2."""
    try:
        sys.exit(main(argv))
    except Fail as e:
        print(f"corpus: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    entry_point(sys.argv[1:])
