#!/usr/bin/env bash
# Runs the benchmarks and compares them with a saved baseline using Google Benchmark's own
# compare.py (Debian package libbenchmark-tools; it needs python3-scipy). Flags every benchmark
# whose median time grew by more than the threshold (default 20 %: a shared 2-core machine varies by 10-15 % run to run) and exits 1 if any did.
#   bench/compare.sh [BASELINE.json] [THRESHOLD_PERCENT]
# Make a new baseline:  build/release/bench/warpsim_bench --benchmark_repetitions=5 \
#   --benchmark_report_aggregates_only=true --benchmark_out=bench/baseline/NAME.json --benchmark_out_format=json
set -euo pipefail
cd "$(dirname "$0")/.."
baseline="${1:-bench/baseline/dev-2core.json}"
threshold="${2:-20}"
compare=/usr/share/benchmark/compare.py
[ -f "$compare" ] || { echo "compare.sh: install libbenchmark-tools and python3-scipy (apt-get)" >&2; exit 2; }
bench=build/release/bench/warpsim_bench
[ -x "$bench" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target warpsim_bench; }
current=$(mktemp --suffix=.json)
diff=$(mktemp --suffix=.json)
trap 'rm -f "$current" "$diff"' EXIT
"$bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_out="$current" --benchmark_out_format=json >/dev/null
/usr/bin/python3 "$compare" --no-color -d "$diff" benchmarks "$baseline" "$current"
/usr/bin/python3 - "$diff" "$threshold" <<'PY'
import json, sys
rows, threshold = json.load(open(sys.argv[1])), float(sys.argv[2]) / 100
regressions = [(r['name'], r['measurements'][0]['time']) for r in rows
               if r.get('aggregate_name') == 'median' and r['measurements'][0]['time'] > threshold]
for name, change in regressions:
    print(f'REGRESSION {name}: {change:+.1%}')
print(f'{len(regressions)} regressions above {threshold:.0%}')
sys.exit(1 if regressions else 0)
PY
