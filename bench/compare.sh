#!/usr/bin/env bash
# Compares the benchmarks of this working tree with those of another revision, side by side on
# this machine, or (without REV) with a committed baseline measured once (docs/performance.md).
#
#   bench/compare.sh REV [OPTIONS] [-- BENCHMARK_ARGS...]
#       REV is any git revision (a hash, HEAD~3, main). It is checked out in a worktree under
#       build/compare/HASH (kept, so a later comparison with the same commit reuses its build),
#       whose benchmark programs alone are built with the ci preset (release, -j2), as are this
#       tree's in build/ci (what scripts/test.sh built: only the benchmark programs are added).
#       Both go through ccache where it is installed, with the repository as its base folder, so
#       REV's build compiles only the files that differ from a build ccache has already seen.
#       Then the two builds of each benchmark program run interleaved: ROUNDS rounds, each
#       running old then new (new first in every second round), with REPETITIONS repetitions
#       and Google Benchmark's JSON output. bench/compare_runs.py merges the rounds, runs Google
#       Benchmark's compare.py (U test) on the two sides and prints one table: per benchmark
#       old and new median, new/old, the per-round ratios' range, p and a verdict
#       (faster / slower / same within noise). Runs and reports stay in build/compare/runs/.
#         --rounds N          interleaved rounds (default 5)
#         --repetitions N     repetitions per run (--benchmark_repetitions, default 3)
#         --min-time SECONDS  --benchmark_min_time per repetition (default: Google Benchmark's)
#         --noise PCT         ratios within PCT % of 1 are "same" (default 10)
#         --alpha P           U test significance level (default 0.05)
#         --time auto|cpu|real  which time to compare (default auto: CPU time, real time for
#                             benchmarks measured by it, names ending in /real_time)
#         --fail-above PCT    exit 1 if a benchmark is "slower" by more than PCT %
#         --quick             only the benchmarks of the libraries the change touches (the files
#                             that differ between REV and this tree, bench/quick-sets.txt), 3
#                             rounds of 3 repetitions of at least 0.1 s each unless given: about
#                             5 minutes on 2 cores for one library's benchmarks, builds included
#       BENCHMARK_ARGS go to both builds, e.g. -- --benchmark_filter='Listing1|PaperSweep'.
#
#   bench/compare.sh [--baseline FILE.json] [--threshold PCT] [-- BENCHMARK_ARGS...]
#   bench/compare.sh FILE.json [PCT]
#       Runs this tree's benchmarks (5 repetitions) and compares them with a saved baseline
#       (default bench/baseline/dev-2core.json) using compare.py; prints one
#       "REGRESSION name: +x%" line for each median more than PCT % slower (default 20) and
#       exits 1 if any was. The baseline was measured on another machine or day: the result is
#       a record, not a verdict.
#       Make a new baseline:  build/ci/bench/warpsim_bench --benchmark_repetitions=5 \
#         --benchmark_report_aggregates_only=true --benchmark_out=bench/baseline/NAME.json --benchmark_out_format=json
#
# Needs Google Benchmark's compare.py and SciPy: apt-get install libbenchmark-tools python3-scipy.
# Exit status: 0; 1 regressions (--fail-above, or baseline mode); 2 usage, unknown REV, a REV
# without the benchmarks, missing tools; 3 a build or a benchmark run failed; 130 interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

die() { echo "compare.sh: $1" >&2; exit "${2:-2}"; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }
need_value() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value (bench/compare.sh --help)"; }

rev="" baseline="" threshold=20 rounds="" repetitions=3 min_time="" noise=10 alpha=0.05 fail_above="" time_choice=auto quick=""
positional=() bench_args=()
while (($#)); do
  case "$1" in
    -h|--help) usage; exit 0 ;;
    --baseline) need_value "$@"; baseline=$2; shift 2 ;;
    --threshold) need_value "$@"; threshold=$2; shift 2 ;;
    --rounds) need_value "$@"; rounds=$2; shift 2 ;;
    --repetitions) need_value "$@"; repetitions=$2; shift 2 ;;
    --min-time) need_value "$@"; min_time=$2; shift 2 ;;
    --noise) need_value "$@"; noise=$2; shift 2 ;;
    --alpha) need_value "$@"; alpha=$2; shift 2 ;;
    --fail-above) need_value "$@"; fail_above=$2; shift 2 ;;
    --time) need_value "$@"; time_choice=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    --) shift; bench_args=("$@"); break ;;
    -*) die "unknown option $1 (bench/compare.sh --help)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
# The first positional argument is a revision, unless it is a JSON file (the older form
# `compare.sh BASELINE.json [THRESHOLD]`).
if ((${#positional[@]})); then
  if [[ "${positional[0]}" == *.json && -f "${positional[0]}" ]]; then
    baseline=${positional[0]}
    ((${#positional[@]} < 2)) || threshold=${positional[1]}
    ((${#positional[@]} < 3)) || die "too many arguments (bench/compare.sh --help)"
  else
    rev=${positional[0]}
    ((${#positional[@]} == 1)) || die "one revision at a time (extra argument '${positional[1]}'; benchmark flags go after --)"
    [[ -z "$baseline" ]] || die "give a revision or --baseline, not both"
  fi
fi
[[ "$time_choice" =~ ^(auto|cpu|real)$ ]] || die "--time takes auto, cpu or real, not '$time_choice'"
if [[ -n "$quick" ]]; then
  [[ -n "$rev" ]] || die "--quick compares with a revision: bench/compare.sh REV --quick"
  rounds=${rounds:-3}
  min_time=${min_time:-0.1}
fi
rounds=${rounds:-5}
for value in "$rounds" "$repetitions"; do
  [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "--rounds and --repetitions take a positive whole number, not '$value'"
done

compare_py=${WARPSIM_COMPARE_PY:-/usr/share/benchmark/compare.py}
[[ -f "$compare_py" ]] || die "Google Benchmark's compare.py is not installed: apt-get install libbenchmark-tools python3-scipy"
# compare.py needs SciPy, which Debian installs for its own python3 (not a pyenv or a venv's).
python=""
for candidate in python3 /usr/bin/python3; do
  if command -v "$candidate" >/dev/null && "$candidate" -c 'import scipy.stats, numpy' 2>/dev/null; then
    python=$(command -v "$candidate"); break
  fi
done
[[ -n "$python" ]] || die "compare.py needs SciPy: apt-get install python3-scipy"

# The benchmark programs (add_executable in bench/CMakeLists.txt) of this tree and of a revision.
programs_in() { sed -n 's/^[[:space:]]*add_executable([[:space:]]*\([A-Za-z0-9_]*\).*/\1/p'; }
mapfile -t programs < <(programs_in < bench/CMakeLists.txt)
((${#programs[@]})) || die "no add_executable in bench/CMakeLists.txt" 3

# ccache (scripts/install-deps.sh) for both builds: with the repository as base folder, a file that is
# the same in REV's worktree (build/compare/HASH, inside it) and this tree compiles once. Revisions
# from before CMakeLists.txt used ccache get it as the launcher.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

build_current() {
  local log=build/compare/current.build.log
  mkdir -p build/compare
  echo "compare.sh: building this tree's ${programs[*]} (ci preset, build/ci; log: $log)"
  if ! { [[ -f build/ci/CMakeCache.txt ]] || cmake --preset ci; } >"$log" 2>&1 ||
     ! cmake --build --preset ci -j 2 --target "$@" >>"$log" 2>&1; then
    tail -n 20 "$log" >&2
    die "this tree's benchmarks failed to build (log: $log)" 3
  fi
}

# --- Baseline mode: one run of this tree against a JSON file from another machine or day ---
if [[ -z "$rev" ]]; then
  baseline=${baseline:-bench/baseline/dev-2core.json}
  [[ -f "$baseline" ]] || die "no baseline file $baseline"
  note="NOTE: $baseline was measured on another machine or day: this comparison is a record, not a verdict
      (load and hardware alone move these times by 10-600 %). For a verdict on a change, compare two
      revisions side by side on this machine: bench/compare.sh REV (e.g. bench/compare.sh main)."
  echo "$note"
  build_current warpsim_bench
  current=$(mktemp --suffix=.json)
  diff=$(mktemp --suffix=.json)
  trap 'rm -f "$current" "$diff"' EXIT
  build/ci/bench/warpsim_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    ${bench_args[@]+"${bench_args[@]}"} --benchmark_out="$current" --benchmark_out_format=json >/dev/null ||
    die "warpsim_bench failed" 3
  "$python" "$compare_py" --no-color -d "$diff" benchmarks "$baseline" "$current"
  status=0
  "$python" - "$diff" "$threshold" <<'PY' || status=$?
import json, sys
rows, threshold = json.load(open(sys.argv[1])), float(sys.argv[2]) / 100
regressions = [(r['name'], r['measurements'][0]['time']) for r in rows
               if r.get('aggregate_name') == 'median' and r['measurements'][0]['time'] > threshold]
for name, change in regressions:
    print(f'REGRESSION {name}: {change:+.1%}')
print(f'{len(regressions)} regressions above {threshold:.0%} against the baseline (a record, not a verdict: see the note above)')
sys.exit(1 if regressions else 0)
PY
  exit "$status"
fi

# --- Side by side: REV's build and this tree's, interleaved on this machine ---
hash=$(git rev-parse --verify --quiet --end-of-options "$rev^{commit}" 2>/dev/null) ||
  die "unknown revision '$rev'"
short=$(git rev-parse --short=12 "$hash")
git cat-file -e "$hash:bench/CMakeLists.txt" 2>/dev/null ||
  die "$rev ($short) predates the benchmarks: it has no bench/CMakeLists.txt"
mapfile -t rev_programs < <(git show "$hash:bench/CMakeLists.txt" | programs_in)
((${#rev_programs[@]})) ||
  die "$rev ($short) predates the benchmarks: its bench/CMakeLists.txt builds no benchmark program"
common=()
for program in "${programs[@]}"; do
  if [[ " ${rev_programs[*]} " == *" $program "* ]]; then
    common+=("$program")
  else
    echo "compare.sh: $program is not in $rev ($short): not compared"
  fi
done
((${#common[@]})) || die "$rev ($short) has none of this tree's benchmark programs (${programs[*]})"

# --quick: the benchmarks that the changed files can move (bench/quick-sets.txt), as a filter
# before BENCHMARK_ARGS (so that a --benchmark_filter given there wins).
if [[ -n "$quick" ]]; then
  mapfile -t changed < <({ git diff --name-only "$hash" --; git ls-files --others --exclude-standard; } | sort -u)
  filters=()
  while read -r prefix regex; do
    [[ -z "$prefix" || "$prefix" == \#* ]] && continue
    for file in ${changed[@]+"${changed[@]}"}; do
      if [[ "$file" == "$prefix"* ]]; then
        [[ " ${filters[*]-} " == *" ($regex) "* ]] || filters+=("($regex)")
        break
      fi
    done
  done < bench/quick-sets.txt
  if ((${#filters[@]} == 0)); then
    echo "compare.sh: --quick: none of the ${#changed[@]} changed files since $rev ($short) is in a benchmarked library (bench/quick-sets.txt): nothing to compare"
    exit 0
  fi
  quick_filter=$(IFS='|'; echo "${filters[*]}")
  echo "compare.sh: --quick: ${#changed[@]} changed files since $rev ($short); benchmarks matching $quick_filter"
  bench_args=(--benchmark_filter="$quick_filter" ${bench_args[@]+"${bench_args[@]}"})
fi

worktree=$root/build/compare/$short
created=""
runs=""
cleanup() {
  # Interrupted or failed while this run was creating or building REV's worktree: remove it.
  if [[ -n "$created" ]]; then
    git worktree remove --force "$worktree" >/dev/null 2>&1 || rm -rf "$worktree"
  fi
  git worktree prune
}
trap 'echo; echo "compare.sh: interrupted" >&2; cleanup; exit 130' INT TERM

mkdir -p build/compare
git worktree prune
if [[ -d "$worktree" && "$(git -C "$worktree" rev-parse HEAD 2>/dev/null)" == "$hash" &&
      -f "$worktree/.git" ]]; then
  echo "compare.sh: reusing $worktree ($rev = $short)"
else
  [[ ! -e "$worktree" ]] || { rm -rf "$worktree"; git worktree prune; }
  created=1
  git worktree add --detach --quiet "$worktree" "$hash" || { cleanup; die "cannot create a worktree of $rev" 3; }
fi
log=$root/build/compare/$short.build.log
# REV's preset: ci (this tree's flags, so ccache shares its objects), or release, or none for
# revisions from before the presets (a plain Release folder). Its build folder is build/PRESET.
rev_preset=""
for candidate in ci release; do
  if [[ -f "$worktree/CMakePresets.json" ]] && grep -q "\"name\": \"$candidate\"" "$worktree/CMakePresets.json"; then
    rev_preset=$candidate
    break
  fi
done
rev_build=build/${rev_preset:-release}
echo "compare.sh: building $rev ($short): ${common[*]} ($rev_build, -j2; log: $log)"
if ! (
  cd "$worktree"
  # (set -e does not apply inside a tested subshell: hence the &&.)
  if [[ -n "$rev_preset" ]]; then
    cmake --preset "$rev_preset" -DWARPSIM_BUILD_TESTS=OFF ${launcher[@]+"${launcher[@]}"} &&
      cmake --build --preset "$rev_preset" -j 2 --target "${common[@]}"
  else  # revisions from before the presets
    cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DWARPSIM_BUILD_TESTS=OFF ${launcher[@]+"${launcher[@]}"} &&
      cmake --build build/release -j 2 --target "${common[@]}"
  fi
) >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  cleanup
  die "$rev ($short) failed to build its benchmarks (log: $log; its worktree was removed)" 3
fi
created=""  # built: kept for the next comparison with this commit
build_current "${common[@]}"

runs=$root/build/compare/runs/$(date +%Y%m%d-%H%M%S)-$short
mkdir -p "$runs/old" "$runs/new"
label_new="this tree ($(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- 2>/dev/null || echo ' + uncommitted changes'))"
min_flag=()
[[ -z "$min_time" ]] || min_flag=(--benchmark_min_time="$min_time")
echo "compare.sh: $rounds rounds x ${#common[@]} program(s), old = $rev ($short), new = $label_new; runs in $runs"
for ((round = 1; round <= rounds; round++)); do
  if ((round % 2)); then order=(old new); else order=(new old); fi
  for program in "${common[@]}"; do
    for side in "${order[@]}"; do
      if [[ $side == old ]]; then binary=$worktree/$rev_build/bench/$program; else binary=$root/build/ci/bench/$program; fi
      out=$runs/$side/$round-$program.json
      start=$SECONDS
      if ! "$binary" --benchmark_repetitions="$repetitions" ${min_flag[@]+"${min_flag[@]}"} \
           ${bench_args[@]+"${bench_args[@]}"} --benchmark_out="$out" --benchmark_out_format=json \
           >"$runs/$side/$round-$program.log" 2>&1 || [[ ! -s "$out" ]]; then
        tail -n 5 "$runs/$side/$round-$program.log" >&2
        die "$side $program failed in round $round (log: $runs/$side/$round-$program.log)" 3
      fi
      echo "  round $round/$rounds: $side $program ($((SECONDS - start)) s)"
    done
  done
done
trap - INT TERM

fail_flag=()
[[ -z "$fail_above" ]] || fail_flag=(--fail-above "$fail_above")
"$python" bench/compare_runs.py --alpha "$alpha" --noise "$noise" --time "$time_choice" ${fail_flag[@]+"${fail_flag[@]}"} \
  --compare-py "$compare_py" --out-dir "$runs" --old-label "$rev ($short)" --new-label "$label_new" \
  "$runs/old" "$runs/new"
