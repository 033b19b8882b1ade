#!/usr/bin/env bash
# Collects the seeds of one fuzz target into a folder: the repository's own inputs of that format
# (workloads, test cases, malformed inputs, GPU profiles, suites...), the hand-written seeds in
# fuzz/seeds/<kind>/ and the minimised findings in fuzz/regressions/<target>/. Nothing of this is
# committed twice: the corpus is built here at run time (docs/fuzzing.md, "Seeds").
#
#   scripts/fuzz-corpus.sh TARGET DEST    copy TARGET's seeds into DEST (created; files added)
#   scripts/fuzz-corpus.sh --list         print the targets
#
# scripts/fuzz.sh fills build/fuzz/corpus-run/<target>/ with it; the replay ctests
# (fuzz/CMakeLists.txt) run each harness once over what it collects. A pattern that matches
# nothing is an error, so a moved folder cannot silently drop seeds.
set -euo pipefail
shopt -s globstar nullglob

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

targets=(ptx_parser_fuzzer ptx_lowering_fuzzer kp_fuzzer profile_fuzzer suite_fuzzer csv_fuzzer
         profiler_import_fuzzer point_list_fuzzer expression_fuzzer app_fuzzer pipe_table_fuzzer sass_listing_fuzzer
         input_contents_fuzzer)
if [ "${1:-}" = --list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
[ $# -eq 2 ] || { echo "usage: $0 TARGET DEST | --list" >&2; exit 2; }
target="$1"
dest="$2"

# The repository's files per target, as globs from the root. The two PTX targets share one list
# (and fuzz/seeds/ptx/): what one can read, the other should see too.
case "$target" in
  ptx_parser_fuzzer | ptx_lowering_fuzzer)
    kind=ptx
    patterns=('workloads/**/*.ptx' 'tests/ptx/**/*.ptx' 'tests/malformed/ptx/*') ;;
  kp_fuzzer)
    kind=kp
    patterns=('workloads/**/*.kp' 'tests/malformed/kp/*') ;;
  profile_fuzzer)
    kind=profile
    patterns=('gpus/*.toml' 'tests/malformed/toml/profile_*.toml') ;;
  pipe_table_fuzzer)
    kind=pipe_table
    patterns=('gpus/pipes/*.toml') ;;
  suite_fuzzer)
    kind=suite
    patterns=('workloads/suites/*.toml' 'bench/suites/*.toml' 'tests/malformed/toml/suite_*.toml') ;;
  app_fuzzer)
    kind=app
    patterns=('workloads/apps/*.toml' 'tests/malformed/toml/app_*.toml') ;;
  csv_fuzzer)
    kind=csv
    patterns=('workloads/measurements/*.csv' 'tests/evaluate/data/rtx2080-measured.csv' 'tests/malformed/csv/*') ;;
  profiler_import_fuzzer)
    kind=profiler_import
    patterns=('tests/evaluate/data/nvprof_*.csv' 'tests/evaluate/data/nsys_*.csv' 'tests/evaluate/data/malformed/*.csv') ;;
  point_list_fuzzer)
    kind=point_list
    patterns=('workloads/points/*.csv') ;;
  expression_fuzzer)
    kind=expression
    patterns=() ;;
  sass_listing_fuzzer)
    kind=sass
    patterns=('tests/sass/fixtures/*.sass') ;;
  input_contents_fuzzer)
    kind=input
    patterns=() ;;
  *) echo "fuzz-corpus.sh: no such target: $target (see --list)" >&2; exit 2 ;;
esac
[ -d "fuzz/seeds/$kind" ] && patterns+=("fuzz/seeds/$kind/*")

mkdir -p "$dest"
count=0
# Copies FILE into DEST under its path with / as _, so that names from different folders differ.
# The profiler harness reads its first byte as the format (even: nvprof, odd: nsys): the file is
# written with that byte in front, matching its name, or twice (both bytes) when the name says
# neither, as the malformed samples do not.
add() {
  local file="$1" name="${1//\//_}"
  if [ "$kind" = profiler_import ]; then
    case "$(basename "$file")" in
      nvprof_*) { printf '\000'; cat "$file"; } >"$dest/$name" ;;
      nsys_*) { printf '\001'; cat "$file"; } >"$dest/$name" ;;
      *) { printf '\000'; cat "$file"; } >"$dest/nvprof.$name"
         { printf '\001'; cat "$file"; } >"$dest/nsys.$name" ;;
    esac
  else
    cp "$file" "$dest/$name"
  fi
  count=$((count + 1))
}
for pattern in "${patterns[@]}"; do
  # shellcheck disable=SC2206  # the glob is meant to expand here
  files=($pattern)
  [ ${#files[@]} -ne 0 ] || { echo "fuzz-corpus.sh: '$pattern' matches no file ($target)" >&2; exit 1; }
  for file in "${files[@]}"; do [ -f "$file" ] && add "$file"; done
done
# Findings, when the target has any (an empty folder cannot be committed): the fuzzer's bytes as
# they are, the profiler's format byte included.
for file in "fuzz/regressions/$target"/*; do cp "$file" "$dest/${file//\//_}"; count=$((count + 1)); done
[ "$count" -ne 0 ] || { echo "fuzz-corpus.sh: no seeds for $target" >&2; exit 1; }
echo "fuzz-corpus.sh: $count seeds for $target in $dest"
