#!/usr/bin/env python3
"""Compares two builds' Google Benchmark runs taken side by side (bench/compare.sh REV).

    compare_runs.py [options] OLD_DIR NEW_DIR

Each directory holds one Google Benchmark JSON file per round and benchmark program, named
ROUND-PROGRAM.json (bench/compare.sh writes them: the two builds run interleaved, round by
round). The script

  1. merges each side's rounds into one file (OUT_DIR/old.json, OUT_DIR/new.json): every
     repetition of every round, aggregates and failed runs dropped;
  2. runs Google Benchmark's own compare.py (`compare.py benchmarks OLD NEW`, Debian package
     libbenchmark-tools; it needs SciPy) on the two, which computes a two-sided Mann-Whitney U
     test per benchmark over all the repetitions; its full report goes to OUT_DIR/compare.py.txt;
  3. prints one table: per benchmark the median time of each side, the ratio new/old, the range
     of the per-round ratios (each round's two runs ran back to back, so drift of the machine
     cancels there), the U test's p-value and a verdict: "faster" or "slower" when p < alpha AND
     the ratio is beyond the noise floor (--noise), otherwise "same".

Which time: by default the one Google Benchmark itself measures a benchmark by, CPU time (of
the benchmark's thread), or real time for benchmarks that ask for it (UseRealTime: names ending
in /real_time, such as the -j sweeps). On a loaded machine real time also counts the time the
process waits for a core: a single-threaded benchmark's real time then grows with the load (2.5x
seen on a 2-core machine at load 9) while its CPU time does not. --time real or cpu forces one.

Exit status: 0; 1 when --fail-above PCT is given and a benchmark is "slower" by more than PCT %;
2 when the inputs or the tools are missing.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

COMPARE_PY_DEFAULT = "/usr/share/benchmark/compare.py"
_SCALE_TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
_RUN_FILE = re.compile(r"^(\d+)-(.+)\.json$")


class Error(Exception):
    pass


def load_side(directory):
    """Every repetition of every round in `directory`, as a Google Benchmark JSON object whose
    entries carry their round (`round`) and a repetition_index unique across rounds."""
    if not os.path.isdir(directory):
        raise Error(f"{directory}: no such directory")
    files = []
    for name in os.listdir(directory):
        match = _RUN_FILE.match(name)
        if match:
            files.append((int(match.group(1)), match.group(2), os.path.join(directory, name)))
    if not files:
        raise Error(f"{directory}: no ROUND-PROGRAM.json files")
    files.sort()
    context, entries, next_index = None, [], {}
    for round_number, _, path in files:
        try:
            with open(path) as f:
                run = json.load(f)
        except (OSError, ValueError) as e:
            raise Error(f"{path}: not a Google Benchmark JSON file ({e})") from None
        context = context or run.get("context", {})
        for entry in run.get("benchmarks", []):
            if entry.get("run_type", "iteration") != "iteration" or entry.get("error_occurred"):
                continue
            if entry.get("time_unit") not in _SCALE_TO_NS:
                continue
            entry = dict(entry)
            entry["round"] = round_number
            entry["repetition_index"] = next_index.get(entry["name"], 0)
            next_index[entry["name"]] = entry["repetition_index"] + 1
            entries.append(entry)
    return {"context": context, "benchmarks": entries}


def names_in_order(side):
    seen = {}
    for entry in side["benchmarks"]:
        seen.setdefault(entry["name"], None)
    return list(seen)


def time_field(name, choice):
    """'real_time' or 'cpu_time' for a benchmark: --time's choice, or by default the time Google
    Benchmark measures it by (real time for UseRealTime and UseManualTime benchmarks)."""
    if choice == "auto":
        return "real_time" if name.endswith(("/real_time", "/manual_time")) else "cpu_time"
    return choice + "_time"


def times_ns(side, name, field):
    """{round: [times in ns]} of one benchmark."""
    by_round = {}
    for entry in side["benchmarks"]:
        if entry["name"] == name:
            by_round.setdefault(entry["round"], []).append(entry[field] * _SCALE_TO_NS[entry["time_unit"]])
    return by_round


def python_with_scipy():
    """An interpreter that can run compare.py: this one, else Debian's (python3-scipy installs
    there, not into a pyenv or a virtual environment)."""
    candidates = [sys.executable, "/usr/bin/python3", shutil.which("python3")]
    for candidate in dict.fromkeys(c for c in candidates if c):
        if subprocess.run([candidate, "-c", "import scipy.stats, numpy"], capture_output=True).returncode == 0:
            return candidate
    return None


def run_compare_py(compare_py, old_json, new_json, out_dir):
    """Runs compare.py on the merged files; returns {benchmark: {'real_time': p, 'cpu_time': p}},
    the U test's p-values."""
    if not os.path.isfile(compare_py):
        raise Error(f"{compare_py} not found: install Google Benchmark's tools "
                    "(apt-get install libbenchmark-tools python3-scipy)")
    python = python_with_scipy()
    if python is None:
        raise Error("compare.py needs SciPy: apt-get install python3-scipy")
    dump = os.path.join(out_dir, "compare.py.json")
    report = os.path.join(out_dir, "compare.py.txt")
    with open(report, "w") as out:
        result = subprocess.run([python, compare_py, "--no-color", "-d", dump, "benchmarks", old_json, new_json],
                                stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        raise Error(f"compare.py failed (exit {result.returncode}); its output: {report}")
    with open(dump) as f:
        rows = json.load(f)
    pvalues = {}
    for row in rows:
        if row.get("run_type") != "aggregate" and row.get("utest"):
            pvalues[row["name"]] = {"real_time": row["utest"]["time_pvalue"], "cpu_time": row["utest"]["cpu_pvalue"]}
    return pvalues


def format_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.4g} {unit}"
    return f"{ns:.4g} ns"


def verdict(ratio, pvalue, alpha, noise):
    if pvalue is None:
        return "n/a (fewer than 2 samples)"
    if pvalue < alpha and ratio > 1 + noise:
        return "slower"
    if pvalue < alpha and ratio < 1 / (1 + noise):
        return "faster"
    return "same"


def compare(old, new, pvalues, alpha, noise, time_choice="auto"):
    """Rows of the table, one per benchmark that both sides ran."""
    rows = []
    new_names = set(names_in_order(new))
    for name in names_in_order(old):
        if name not in new_names:
            continue
        field = time_field(name, time_choice)
        old_rounds, new_rounds = times_ns(old, name, field), times_ns(new, name, field)
        old_all = [t for ts in old_rounds.values() for t in ts]
        new_all = [t for ts in new_rounds.values() for t in ts]
        old_median, new_median = statistics.median(old_all), statistics.median(new_all)
        ratio = new_median / old_median if old_median > 0 else float("inf")
        round_ratios = [statistics.median(new_rounds[r]) / statistics.median(old_rounds[r])
                        for r in sorted(old_rounds.keys() & new_rounds.keys())
                        if statistics.median(old_rounds[r]) > 0]
        pvalue = pvalues.get(name, {}).get(field)
        rows.append({
            "name": name, "time": field[:-5], "old_median_ns": old_median, "new_median_ns": new_median, "ratio": ratio,
            "round_ratio_min": min(round_ratios) if round_ratios else None,
            "round_ratio_max": max(round_ratios) if round_ratios else None,
            "samples_old": len(old_all), "samples_new": len(new_all), "pvalue": pvalue,
            "verdict": verdict(ratio, pvalue, alpha, noise),
        })
    return rows


def print_table(rows, out=sys.stdout):
    header = ("Benchmark", "time", "old median", "new median", "new/old", "per round", "p (U test)", "verdict")
    cells = [header]
    for row in rows:
        spread = ("" if row["round_ratio_min"] is None
                  else f"{row['round_ratio_min']:.3f}-{row['round_ratio_max']:.3f}")
        cells.append((row["name"], row["time"], format_time(row["old_median_ns"]), format_time(row["new_median_ns"]),
                      f"{row['ratio']:.3f}", spread,
                      "" if row["pvalue"] is None else f"{row['pvalue']:.2g}", row["verdict"]))
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    for i, c in enumerate(cells):
        # Name left-aligned, numbers right-aligned, the verdict as it is.
        line = "  ".join([c[0].ljust(widths[0])] + [c[j].rjust(widths[j]) for j in range(1, len(c) - 1)] + [c[-1]])
        print(line.rstrip(), file=out)
        if i == 0:
            print("-" * len(line), file=out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old_dir", metavar="OLD_DIR")
    parser.add_argument("new_dir", metavar="NEW_DIR")
    parser.add_argument("--alpha", type=float, default=0.05, help="U test significance level (default 0.05)")
    parser.add_argument("--noise", type=float, default=10.0,
                        help="ratios within this many per cent of 1 are 'same' whatever p (default 10)")
    parser.add_argument("--time", choices=("auto", "cpu", "real"), default="auto",
                        help="which time to compare: auto (default) takes CPU time, or real time for "
                             "benchmarks measured by it (names ending in /real_time)")
    parser.add_argument("--fail-above", type=float, metavar="PCT",
                        help="exit 1 if a benchmark is 'slower' by more than PCT per cent")
    parser.add_argument("--compare-py", default=os.environ.get("WARPSIM_COMPARE_PY", COMPARE_PY_DEFAULT),
                        help=f"Google Benchmark's compare.py (default {COMPARE_PY_DEFAULT})")
    parser.add_argument("--out-dir", help="where the merged runs and compare.py's report go "
                                          "(default: beside OLD_DIR)")
    parser.add_argument("--old-label", default="old")
    parser.add_argument("--new-label", default="new")
    args = parser.parse_args(argv)
    try:
        old, new = load_side(args.old_dir), load_side(args.new_dir)
        out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.old_dir))
        os.makedirs(out_dir, exist_ok=True)
        old_json, new_json = os.path.join(out_dir, "old.json"), os.path.join(out_dir, "new.json")
        for side, path in ((old, old_json), (new, new_json)):
            with open(path, "w") as f:
                json.dump(side, f, indent=1)
        pvalues = run_compare_py(args.compare_py, old_json, new_json, out_dir)
    except Error as e:
        print(f"compare_runs.py: {e}", file=sys.stderr)
        return 2
    rows = compare(old, new, pvalues, args.alpha, args.noise / 100, args.time)
    rounds = len({e["round"] for e in old["benchmarks"]})
    which = {"auto": "CPU time, real time for /real_time benchmarks", "cpu": "CPU time", "real": "real time"}
    print(f"old = {args.old_label}\nnew = {args.new_label}\n"
          f"{rounds} rounds, interleaved. Medians of all repetitions ({which[args.time]}); per round: the "
          f"range of the rounds' ratios new/old;\nverdict: faster or slower when the U test's p < {args.alpha:g} "
          f"and the ratio is beyond {args.noise:g} %, else same.")
    print_table(rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("faster", "slower", "same")}
    only_old = [n for n in names_in_order(old) if n not in set(names_in_order(new))]
    only_new = [n for n in names_in_order(new) if n not in set(names_in_order(old))]
    if only_old:
        print(f"only in old ({len(only_old)}): {', '.join(only_old)}")
    if only_new:
        print(f"only in new ({len(only_new)}): {', '.join(only_new)}")
    print(f"{counts['faster']} faster, {counts['slower']} slower, {counts['same']} same "
          f"(compare.py's full report: {os.path.join(out_dir, 'compare.py.txt')})")
    if args.fail_above is not None:
        failing = [r for r in rows if r["verdict"] == "slower" and r["ratio"] > 1 + args.fail_above / 100]
        for r in failing:
            print(f"REGRESSION {r['name']}: {r['ratio'] - 1:+.1%}")
        if failing:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
