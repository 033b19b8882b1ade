#!/usr/bin/env python3
"""bench/compare_runs.py (bench/compare.sh REV) on synthetic interleaved runs: checks the verdicts
and the exit status. Exits 77 (ctest: skipped) when Google Benchmark's compare.py or SciPy is
not installed (apt-get install libbenchmark-tools python3-scipy)."""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "bench", "compare_runs.py")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import compare_runs  # noqa: E402

ROUNDS, REPETITIONS = 5, 3
JITTER = [0.990, 1.004, 0.997, 1.011, 0.993, 1.002, 1.008, 0.995, 1.000, 0.989, 1.006, 0.998, 1.013, 0.992, 1.003]


def entry(name, time, unit, repetition, family, real_factor=1.0):
    return {"name": name, "family_index": family, "per_family_instance_index": 0, "run_name": name,
            "run_type": "iteration", "repetitions": REPETITIONS, "repetition_index": repetition, "threads": 1,
            "iterations": 1000, "real_time": time * real_factor, "cpu_time": time, "time_unit": unit}


def write_side(directory, benchmarks, shift):
    """benchmarks: (name, base time, unit, factor[, real time factor]); shift rotates the jitter so
    the two sides' samples differ."""
    os.makedirs(directory)
    for r in range(ROUNDS):
        rows = []
        for family, (name, base, unit, factor, *real_factor) in enumerate(benchmarks):
            for rep in range(REPETITIONS):
                k = (r * REPETITIONS + rep + shift) % len(JITTER)
                rows.append(entry(name, base * factor * JITTER[k], unit, rep, family, *real_factor))
            # What compare_runs.py must ignore: the run's aggregates and a failed benchmark.
            aggregate = entry(name + "_median", base * factor, unit, 0, family)
            aggregate.update(run_type="aggregate", aggregate_name="median")
            rows.append(aggregate)
        failed = entry("Failed", 1.0, "ns", 0, len(benchmarks))
        failed.update(error_occurred=True, error_message="synthetic")
        rows.append(failed)
        with open(os.path.join(directory, f"{r + 1}-fake_bench.json"), "w") as f:
            json.dump({"context": {"num_cpus": 2}, "benchmarks": rows}, f)


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    compare_py = os.environ.get("WARPSIM_COMPARE_PY", compare_runs.COMPARE_PY_DEFAULT)
    if not os.path.isfile(compare_py) or compare_runs.python_with_scipy() is None:
        print("SKIPPED: needs Google Benchmark's compare.py and SciPy (apt-get install libbenchmark-tools python3-scipy)")
        return 77
    failures, checks = [], [0]

    def check(condition, what):
        checks[0] += 1
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        # Loaded: the new side's real time doubled, its CPU time did not (compared by CPU time).
        # Threads/real_time: real time 1.3x, the main thread's CPU time unchanged (by real time).
        write_side(os.path.join(tmp, "old"), [("Same", 120.0, "ns", 1.0), ("Faster", 2.5, "ms", 1.0),
                                              ("SmallShift", 40.0, "us", 1.0), ("Slower", 800.0, "ns", 1.0),
                                              ("Loaded", 50.0, "ns", 1.0), ("Threads/real_time", 3.0, "ms", 1.0),
                                              ("OnlyOld", 1.0, "ns", 1.0)], 0)
        write_side(os.path.join(tmp, "new"), [("Same", 120.0, "ns", 1.0), ("Faster", 2.5, "ms", 0.7),
                                              ("SmallShift", 40.0, "us", 1.02), ("Slower", 800.0, "ns", 1.3),
                                              ("Loaded", 50.0, "ns", 1.0, 2.0), ("Threads/real_time", 3.0, "ms", 1.0, 1.3),
                                              ("OnlyNew", 1.0, "ns", 1.0)], 7)
        old, new = os.path.join(tmp, "old"), os.path.join(tmp, "new")

        result = run(old, new)
        print(result.stdout, result.stderr, sep="")
        check(result.returncode == 0, f"default run exits 0, not {result.returncode}")
        verdicts = {}
        for line in result.stdout.splitlines():
            fields = line.split()
            if fields and fields[0] in ("Same", "Faster", "SmallShift", "Slower", "Loaded", "Threads/real_time",
                                        "OnlyOld", "OnlyNew", "Failed"):
                verdicts[fields[0]] = (fields[1], fields[-1])
        expected = {"Same": ("cpu", "same"), "Faster": ("cpu", "faster"), "SmallShift": ("cpu", "same"),
                    "Slower": ("cpu", "slower"), "Loaded": ("cpu", "same"), "Threads/real_time": ("real", "slower")}
        check(verdicts == expected, f"verdicts {verdicts}, expected {expected}")
        check("only in old (1): OnlyOld" in result.stdout, "OnlyOld listed as only in old")
        check("only in new (1): OnlyNew" in result.stdout, "OnlyNew listed as only in new")
        check("1 faster, 2 slower, 3 same" in result.stdout, "the counts line")
        check(os.path.isfile(os.path.join(tmp, "compare.py.txt")), "compare.py's report is kept")
        merged = json.load(open(os.path.join(tmp, "old.json")))
        same = [e for e in merged["benchmarks"] if e["name"] == "Same"]
        check(len(same) == ROUNDS * REPETITIONS, f"{len(same)} merged repetitions of Same")
        check(sorted(e["repetition_index"] for e in same) == list(range(ROUNDS * REPETITIONS)),
              "repetition indices renumbered across rounds")
        table = {r["name"]: r for r in compare_runs.compare(compare_runs.load_side(old), compare_runs.load_side(new),
                                                            {}, 0.05, 0.05)}
        check(abs(table["Slower"]["ratio"] - 1.3) < 0.02, f"Slower's ratio {table['Slower']['ratio']:.3f}")
        check(abs(table["Faster"]["old_median_ns"] - 2.5e6) < 0.02e6, "Faster's median in ns")

        # A gentle --noise turns the consistent 2 % shift into a verdict.
        result = run(old, new, "--noise", "1")
        check("SmallShift" in result.stdout and any(l.split()[:1] == ["SmallShift"] and l.split()[-1] == "slower"
                                                    for l in result.stdout.splitlines()),
              "SmallShift is 'slower' with --noise 1")

        result = run(old, new, "--fail-above", "10")
        check(result.returncode == 1, f"--fail-above 10 exits 1, not {result.returncode}")
        check("REGRESSION Slower: +30" in result.stdout and "REGRESSION Threads/real_time: +30" in result.stdout,
              "--fail-above names the regressions")
        result = run(old, new, "--time", "real")
        check(any(l.split()[:2] == ["Loaded", "real"] and l.split()[-1] == "slower" for l in result.stdout.splitlines()),
              "Loaded is 'slower' by real time (--time real)")
        result = run(old, new, "--fail-above", "50")
        check(result.returncode == 0, f"--fail-above 50 exits 0, not {result.returncode}")
        result = run(old, os.path.join(tmp, "missing"))
        check(result.returncode == 2 and "no such directory" in result.stderr, "a missing directory exits 2")

    for failure in failures:
        print("FAILED:", failure)
    print(f"{checks[0] - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
