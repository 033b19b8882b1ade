#!/usr/bin/env bash
# Builds the libFuzzer harnesses (the fuzz preset: clang++, ASan + UBSan) and runs each one for
# SECONDS_PER_TARGET seconds (default 15) on a copy of its seed corpus, one at a time.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
# Environment: FUZZ_TARGETS="ptx_parser_fuzzer kp_fuzzer" runs only those targets.
# Exits non-zero when a fuzzer finds a crash, sanitizer report, timeout, leak or out-of-memory;
# the reproducer (crash-*, timeout-*, leak-*, oom-*) is left in build/fuzz/findings/<target>/.
# The repository is not modified: the corpus grows in build/fuzz/corpus-run/<target>/.
# See docs/fuzzing.md.
set -euo pipefail

seconds="${1:-15}"
case "$seconds" in
  '' | *[!0-9]*) echo "usage: $0 [SECONDS_PER_TARGET]" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

all_targets=(ptx_parser_fuzzer ptx_lowering_fuzzer kp_fuzzer profile_fuzzer suite_fuzzer csv_fuzzer profiler_import_fuzzer)
read -r -a targets <<< "${FUZZ_TARGETS:-${all_targets[*]}}"

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzzers

build="$root/build/fuzz"
failed=()
summary=()
for target in "${targets[@]}"; do
  binary="$build/fuzz/$target"
  [ -x "$binary" ] || { echo "fuzz: no such fuzzer: $target" >&2; exit 2; }
  corpus="$build/corpus-run/$target"
  findings="$build/findings/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  # A copy of the seeds: the fuzzer writes new inputs into its first corpus folder.
  cp -f "$root/fuzz/corpus/$target/"* "$corpus/"
  extra=()
  case "$target" in
    ptx_*) extra+=("-dict=$root/fuzz/ptx.dict") ;;
  esac

  echo "fuzz: $target for ${seconds}s"
  status=0
  # -timeout: one input running longer is a hang (a finding). -error_exitcode/-timeout_exitcode
  # keep libFuzzer's defaults (77 / 70); any non-zero status is a failure here. One process, in
  # the foreground: the machine has 2 cores.
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$binary" "$corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$findings/" "${extra[@]}" \
      >"$log" 2>&1 || status=$?
  executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  summary+=("$(printf '%-22s %12s executions  %s' "$target" "${executions:-?}" "$([ "$status" -eq 0 ] && echo ok || echo "FAILED (exit $status)")")")
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    echo "fuzz: $target FAILED (exit $status); log $log; reproducer:" >&2
    ls -1 "$findings" >&2 || true
    grep -m 20 -E 'ERROR|SUMMARY|runtime error|==[0-9]+==|Test unit written' "$log" >&2 || tail -n 30 "$log" >&2
  fi
done

echo
echo "fuzz: ${seconds}s per target"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: findings in ${failed[*]} (build/fuzz/findings/); see docs/fuzzing.md" >&2
  exit 1
fi
echo "fuzz: no findings"
