#!/usr/bin/env python3
"""bench/quick-sets.txt (bench/compare.sh --quick) against bench/*.cpp: every row has a folder prefix
and a regular expression that compiles, every folder named exists, and every benchmark the programs
register is selected by at least one row, so a new benchmark cannot drop out of --quick unnoticed.
Run from the repository root."""
import pathlib
import re
import sys

root = pathlib.Path(".")
rows = []
for number, line in enumerate((root / "bench/quick-sets.txt").read_text().splitlines(), 1):
    if not line.strip() or line.startswith("#"):
        continue
    fields = line.split()
    if len(fields) != 2:
        sys.exit(f"bench/quick-sets.txt:{number}: expected PREFIX REGEX, got {line!r}")
    prefix, regex = fields
    if not (root / prefix).exists():
        sys.exit(f"bench/quick-sets.txt:{number}: no such file or folder {prefix}")
    rows.append((prefix, re.compile(regex)))

# Benchmark names as registered: BENCHMARK(Name), BENCHMARK_CAPTURE(Name, ...), RegisterBenchmark("Name/...").
names = set()
for source in sorted((root / "bench").glob("*.cpp")):
    text = source.read_text()
    names.update(re.findall(r"\bBENCHMARK(?:_CAPTURE)?\(\s*(\w+)", text))
    names.update(re.findall(r'RegisterBenchmark\(\(?\s*"([^"/]+)', text))
if len(names) < 10:
    sys.exit(f"only {len(names)} benchmarks found in bench/*.cpp: the patterns above are out of date")

unselected = sorted(n for n in names if not any(regex.search(n) for _, regex in rows))
if unselected:
    sys.exit(f"bench/quick-sets.txt selects none of: {', '.join(unselected)}")
print(f"quick_sets_test: {len(rows)} rows select all {len(names)} benchmarks: {', '.join(sorted(names))}")
