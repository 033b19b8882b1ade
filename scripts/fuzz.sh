#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang++, ASan + UBSan: the short run's in the asan preset, the sanitizer
# tests' build, so after scripts/test.sh's sanitizer pass nothing is compiled again; the long run's in
# the fuzz preset, with coverage in every library) and runs them, one per core,
# each on its seeds, which scripts/fuzz-corpus.sh collects from the repository at run time (the
# workloads, test cases, malformed inputs, GPU profiles and suites of the target's format, plus
# fuzz/seeds/<kind>/ and fuzz/regressions/<target>/). Two modes (docs/fuzzing.md):
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]          short run (CI): every target, 15 s each by default
#   scripts/fuzz.sh --long [SECONDS_PER_TARGET]   long run (before a release): every target, the
#                                                 PTX ones SECONDS each (default 600), the others a
#                                                 fifth of it (at least 60 s)
#   FUZZ_MODE=long scripts/fuzz.sh [SECONDS]      the same as --long
#
# Environment: FUZZ_TARGETS="ptx_parser_fuzzer kp_fuzzer" runs only those targets (either mode);
# FUZZ_JOBS=N runs N targets at a time, each one process (default: the number of cores).
# The long run differs from the short one in its durations, in -max_len (FUZZ_MAX_LEN, default
# 131072, twice the largest seed, so real PTX files fit), in its seeds (the PTX targets also get
# every PTX file of the public-suite corpus, scripts/corpus.sh, found in FUZZ_PTX_CORPUS, default
# build/corpus/ptx, when it is there) and in what it prints per target: executions, executions per
# second, inputs added, peak memory, seconds run and findings. It also writes that table to
# build/fuzz/long-run.txt.
# Exits non-zero when a fuzzer finds a crash, sanitizer report, timeout, leak or out-of-memory;
# the reproducer (crash-*, timeout-*, leak-*, oom-*) is left in build/fuzz/findings/<target>/.
# libFuzzer stops a target at its first finding; the run goes on with the next target.
# The repository is not modified: the corpus grows in build/fuzz/corpus-run/<target>/. Commit a
# finding only minimised (-minimize_crash=1), into fuzz/regressions/<target>/, where the
# FuzzReplay.<target> ctest replays it.
set -euo pipefail

usage() { echo "usage: $0 [--long] [SECONDS_PER_TARGET]" >&2; exit 2; }

mode="${FUZZ_MODE:-short}"
if [ "${1:-}" = "--long" ]; then
  mode=long
  shift
fi
case "$mode" in
  short | long) ;;
  *) echo "fuzz: FUZZ_MODE must be short or long, not '$mode'" >&2; exit 2 ;;
esac
[ $# -le 1 ] || usage

all_targets=(ptx_parser_fuzzer ptx_lowering_fuzzer kp_fuzzer profile_fuzzer suite_fuzzer csv_fuzzer profiler_import_fuzzer point_list_fuzzer expression_fuzzer app_fuzzer pipe_table_fuzzer sass_listing_fuzzer input_contents_fuzzer)
if [ "$mode" = long ]; then
  seconds="${1:-600}"
  max_len="${FUZZ_MAX_LEN:-131072}"
else
  seconds="${1:-15}"
  max_len=65536
fi
default_targets=("${all_targets[@]}")
case "$seconds" in
  '' | *[!0-9]*) usage ;;
esac
case "$max_len" in
  '' | *[!0-9]*) echo "fuzz: FUZZ_MAX_LEN must be a number of bytes" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ptx_corpus="${FUZZ_PTX_CORPUS:-$root/build/corpus/ptx}"

read -r -a targets <<< "${FUZZ_TARGETS:-${default_targets[*]}}"

for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || { echo "fuzz: no such fuzzer: $target" >&2; exit 2; }
done

# The short run takes the harnesses of the sanitizer build (the asan preset: libFuzzer's coverage in the
# input readers), which scripts/test.sh has just built; the long run builds the fuzz preset's, with
# coverage in every library (docs/fuzzing.md).
preset=asan
[ "$mode" = short ] || preset=fuzz
cmake --preset "$preset" >/dev/null
# Only the targets that run: FUZZ_TARGETS=kp_fuzzer need not build the PTX frontend.
cmake --build --preset "$preset" --target "${targets[@]}"

binaries="$root/build/$preset/fuzz"
build="$root/build/fuzz"  # what the runs write: corpora, findings, logs
# The value of one of libFuzzer's final statistics (-print_final_stats=1) in a log.
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -n 1; }

# Fuzzes one target; its log goes to logs/TARGET.log and "STATUS SECONDS NEW_FINDINGS" to
# logs/TARGET.result, which the summary below reads.
fuzz_target() {
  local target=$1 binary="$binaries/$1" corpus="$build/corpus-run/$1" findings="$build/findings/$1"
  local log="$build/logs/$1.log" extra=() target_seconds="$seconds" corpus_seeds=0 before from_corpus status=0 started
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  # A copy of the seeds: the fuzzer writes new inputs into its first corpus folder.
  "$root/scripts/fuzz-corpus.sh" "$target" "$corpus" >/dev/null
  case "$target" in
    ptx_*) extra+=("-dict=$root/fuzz/ptx.dict") ;;
    *) [ "$mode" = long ] && target_seconds=$(( seconds / 5 > 60 ? seconds / 5 : 60 )) ;;
  esac
  if [ "$mode" = long ] && [[ "$target" == ptx_* ]] && [ -d "$ptx_corpus" ]; then
    # The public suites' real PTX (scripts/corpus.sh), named by content so reruns add nothing twice.
    while IFS= read -r -d '' file; do
      [ "$(wc -c < "$file")" -le "$max_len" ] || continue
      cp "$file" "$corpus/corpus-$(sha1sum "$file" | cut -c1-16).ptx"
      corpus_seeds=$((corpus_seeds + 1))
    done < <(find "$ptx_corpus" -name '*.ptx' -print0)
  fi
  before="$(ls -1 "$findings" | wc -l)"
  from_corpus=""
  [ "$corpus_seeds" -eq 0 ] || from_corpus=", with $corpus_seeds PTX files of $ptx_corpus"
  echo "fuzz: $target for ${target_seconds}s ($mode run$from_corpus)"
  started=$SECONDS
  # -timeout: one input running longer is a hang (a finding). -error_exitcode/-timeout_exitcode
  # keep libFuzzer's defaults (77 / 70); any non-zero status is a failure here.
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$binary" "$corpus" -max_total_time="$target_seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$findings/" "${extra[@]}" \
      >"$log" 2>&1 || status=$?
  echo "$status $((SECONDS - started)) $(( $(ls -1 "$findings" | wc -l) - before ))" >"$build/logs/$target.result"
}

# FUZZ_JOBS targets at a time (default: one per core), each one process: every target still has a
# core of its own for its whole time, and the run takes 1/FUZZ_JOBS of the time one at a time would.
jobs_max="${FUZZ_JOBS:-$(nproc)}"
case "$jobs_max" in
  '' | *[!0-9]* | 0) echo "fuzz: FUZZ_JOBS must be a positive number" >&2; exit 2 ;;
esac
for target in "${targets[@]}"; do
  [ -x "$binaries/$target" ] || { echo "fuzz: no such fuzzer: $target" >&2; exit 2; }
  rm -f "$build/logs/$target.result"
done
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_target "$target" &
done
wait

failed=()
summary=()
for target in "${targets[@]}"; do
  log="$build/logs/$target.log"
  findings="$build/findings/$target"
  read -r status elapsed new_findings < "$build/logs/$target.result" || { status=1 elapsed=0 new_findings=0; }
  executions="$(stat number_of_executed_units "$log")"
  verdict="$([ "$status" -eq 0 ] && echo ok || echo "FAILED (exit $status)")"
  if [ "$mode" = long ]; then
    summary+=("$(printf '%-22s %12s executions %8s/s %6s added %6s MB %5ss  %s findings  %s' "$target" "${executions:-?}" \
      "$(stat average_exec_per_sec "$log")" "$(stat new_units_added "$log")" "$(stat peak_rss_mb "$log")" "$elapsed" \
      "$new_findings" "$verdict")")
  else
    summary+=("$(printf '%-22s %12s executions  %s' "$target" "${executions:-?}" "$verdict")")
  fi
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "fuzz: $target FAILED (exit $status); log $log; reproducer:" >&2
    ls -1 "$findings" >&2 || true
    grep -m 20 -E 'ERROR|SUMMARY|runtime error|==[0-9]+==|Test unit written' "$log" >&2 || tail -n 30 "$log" >&2
  fi
done

echo
durations="${seconds}s per target"
[ "$mode" = long ] && durations="${seconds}s per PTX target, $(( seconds / 5 > 60 ? seconds / 5 : 60 ))s per other target"
echo "fuzz: $durations ($mode run)"
printf '  %s\n' "${summary[@]}"
if [ "$mode" = long ]; then
  {
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), long run, $durations, -max_len=$max_len, $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')"
    printf '  %s\n' "${summary[@]}"
  } >"$build/long-run.txt"
  echo "fuzz: summary in build/fuzz/long-run.txt"
fi
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (build/fuzz/findings/); see docs/fuzzing.md" >&2
  exit 1
fi
echo "fuzz: no findings"
