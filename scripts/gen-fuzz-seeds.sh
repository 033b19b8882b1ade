#!/usr/bin/env bash
# Generates the nvcc seeds: every committed CUDA source under workloads/ and tests/ (the
# measurement kit's, scripts/measure/, are GPU benchmarks, not inputs) compiled to PTX in a
# few builds, written as tests/ptx/nvcc/<name>.<arch>.<build>.ptx with a MANIFEST.txt that names
# the nvcc release and every seed left out and why (docs/fuzzing.md, "Seeds"). The folder is the one
# copy: both PTX fuzzers read it (scripts/fuzz.sh) and the ptx_parser_fuzzer replay test and
# PtxFastPath.FuzzSeedsEqualEmulateAll parse it.
#
#   scripts/gen-fuzz-seeds.sh            regenerate tests/ptx/nvcc/ (needs nvcc on PATH)
#   scripts/gen-fuzz-seeds.sh --check    regenerate into a temporary folder and compare with
#                                        tests/ptx/nvcc/: exit 0 when current, 1 when stale, 77
#                                        (skipped) without nvcc or with another nvcc release
#   scripts/gen-fuzz-seeds.sh DIR        write into DIR instead
#
# The builds of each source (SEED_BUILDS, ARCH.BUILD pairs): every kind of build for sm_80, and the
# optimised one for sm_90, where the architecture shows in the instructions chosen. The optimised
# sm_75 and sm_90 builds of most sources are committed already (workloads/*/NAME.ptx, *.sm_90.ptx)
# and would be left out as copies. Nine builds per source (sm_75/80/90 x three kinds) cost about
# 0.65 s of CPU each, 110 s for 19 sources; these four keep the check under a minute on 2 cores.
#   O3        nvcc -ptx -arch=ARCH           NAME.cu   (nvcc's default device optimisation, -O3)
#   G         nvcc -ptx -arch=ARCH -G        NAME.cu   (debug: no optimisation, .loc, DWARF sections)
#   lineinfo  nvcc -ptx -arch=ARCH -lineinfo NAME.cu   (optimised, with .file/.loc line tables)
#
# A seed larger than SEED_MAX_BYTES (default 65536, the short fuzz run's -max_len) is left out: the
# fuzzers would only see its first bytes, and big seeds slow the lowering fuzzer down. So is a seed
# whose text another seed or a committed .ptx file already has (fuzz.sh collects those anyway).
# Each source is compiled in a fixed staging folder, as in scripts/gen-ptx.sh, so that the paths
# nvcc writes into debug output (and hashes into internal names) do not depend on the checkout;
# a lock keeps two runs from sharing it. The toolkit's own header paths are written as CUDA_HOME/. Compiles run SEED_JOBS (default: the core count) at a time.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
committed=tests/ptx/nvcc

mode=write
out="$committed"
case "${1:-}" in
  --check) mode=check ;;
  '') ;;
  -*) echo "usage: $0 [--check | DIR]" >&2; exit 2 ;;
  *) out="$1" ;;
esac

if ! command -v nvcc >/dev/null 2>&1; then
  if [ "$mode" = check ]; then
    echo "gen-fuzz-seeds.sh: nvcc not found on PATH; cannot check $committed (skipped)"
    exit 77
  fi
  echo "gen-fuzz-seeds.sh: nvcc not found on PATH; keeping $out as it is." >&2
  exit 0
fi

release="$(nvcc --version | grep -o 'release [0-9.]*, V[0-9.]*')"

if [ "$mode" = check ]; then
  # Another nvcc release writes other text (its version is in every file): nothing to compare.
  recorded="$(sed -n 's/^nvcc: //p' "$committed/MANIFEST.txt" 2>/dev/null || true)"
  if [ -n "$recorded" ] && [ "$recorded" != "$release" ]; then
    echo "gen-fuzz-seeds.sh: $committed was made by nvcc $recorded, this is $release (skipped)"
    exit 77
  fi
  fresh="$(mktemp -d)"
  trap 'rm -rf "$fresh"' EXIT
  bash "$root/scripts/gen-fuzz-seeds.sh" "$fresh/nvcc" >/dev/null
  if diff -r "$committed" "$fresh/nvcc" >"$fresh/diff.txt"; then
    echo "gen-fuzz-seeds.sh: $committed is current ($(ls "$committed" | wc -l) files, $release)"
    exit 0
  fi
  echo "gen-fuzz-seeds.sh: $committed is stale; run scripts/gen-fuzz-seeds.sh and commit it:" >&2
  head -n 40 "$fresh/diff.txt" >&2
  exit 1
fi

read -r -a builds <<< "${SEED_BUILDS:-sm_80.O3 sm_80.G sm_80.lineinfo sm_90.O3}"
max_bytes="${SEED_MAX_BYTES:-65536}"
case "$max_bytes" in
  '' | *[!0-9]*) echo "gen-fuzz-seeds.sh: SEED_MAX_BYTES must be a number of bytes" >&2; exit 2 ;;
esac
jobs="${SEED_JOBS:-$(nproc 2>/dev/null || echo 2)}"

# tests/cli/cuda/ holds the .cu inputs of the CLI's nvcc tests (one does not compile on purpose): not kernels to seed from.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t sources < <(git ls-files 'workloads/*.cu' 'tests/*.cu' ':!tests/cli/cuda/*' | LC_ALL=C sort)
else
  mapfile -t sources < <(find workloads tests -name '*.cu' ! -path 'tests/cli/cuda/*' | LC_ALL=C sort)
fi
[ ${#sources[@]} -ne 0 ] || { echo "gen-fuzz-seeds.sh: no .cu files" >&2; exit 1; }
dupes="$(printf '%s\n' "${sources[@]##*/}" | sort | uniq -d)"
[ -z "$dupes" ] || { echo "gen-fuzz-seeds.sh: two sources share a name, seeds would collide: $dupes" >&2; exit 1; }

stage=/tmp/warpsim-gen-fuzz-seeds
exec 9>"$stage.lock"
if command -v flock >/dev/null 2>&1; then flock 9; fi  # util-linux; without it, one run at a time is up to you
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/out" "$stage/log"

# One line per compile: source, arch, build. Run in parallel, each writing its own seed and log.
for source in "${sources[@]}"; do
  mkdir -p "$stage/src/$(dirname "$source")"
  cp "$source" "$stage/src/$source"
  for pair in "${builds[@]}"; do echo "$source ${pair%%.*} ${pair#*.}"; done
done >"$stage/jobs.txt"

compile() {  # SOURCE ARCH BUILD
  local name flags
  name="$(basename "$1" .cu)"
  flags=(-ptx "-arch=$2")
  case "$3" in
    O3) ;;
    G) flags+=(-G) ;;
    lineinfo) flags+=(-lineinfo) ;;
    *) echo "gen-fuzz-seeds.sh: unknown build '$3'" >&2; return 1 ;;
  esac
  cd "$stage/src/$(dirname "$1")"
  if nvcc "${flags[@]}" "$name.cu" -o "$stage/out/$name.$2.$3.ptx" >"$stage/log/$name.$2.$3.log" 2>&1; then
    # Debug builds name the toolkit's headers by the path nvcc was run from (/usr/local/cuda/bin/..
    # or /usr/local/cuda-13.0/bin/..): one stable name keeps the seeds the same on every machine.
    sed -i -E 's#^([[:space:]]*\.file[[:space:]]+[0-9]+[[:space:]]+")[^"]*/bin/\.\./targets/#\1CUDA_HOME/targets/#' \
      "$stage/out/$name.$2.$3.ptx"
  else
    rm -f "$stage/out/$name.$2.$3.ptx"
  fi
}
export -f compile
export stage
xargs -P "$jobs" -L 1 bash -c 'compile "$@"' _ <"$stage/jobs.txt"

# Checked in a fixed order, so the same seeds are kept on every run. Text already seen (a
# committed .ptx outside the output, or an earlier seed) is left out.
declare -A seen
while IFS= read -r file; do
  seen["$(sha1sum <"$file" | cut -c1-40)"]="$file"
done < <(find workloads tests -name '*.ptx' ! -path "$committed/*" | LC_ALL=C sort)
kept=()
left_out=()
while read -r source arch build; do
  seed="$(basename "$source" .cu).$arch.$build.ptx"
  file="$stage/out/$seed"
  if [ ! -f "$file" ]; then
    left_out+=("$seed: nvcc failed: $(grep -m 1 . "$stage/log/${seed%.ptx}.log" | sed "s|$stage/src/||")")
    continue
  fi
  size="$(wc -c <"$file")"
  hash="$(sha1sum <"$file" | cut -c1-40)"
  if [ "$size" -gt "$max_bytes" ]; then
    # Not the exact size: a debug build's assert strings hold the toolkit's install path as bytes,
    # so the size differs between machines with CUDA installed in different folders.
    left_out+=("$seed: above $max_bytes bytes")
  elif [ -n "${seen[$hash]:-}" ]; then
    left_out+=("$seed: the same text as ${seen[$hash]#"$stage/out/"}")
  else
    seen[$hash]="$file"
    kept+=("$seed")
  fi
done <"$stage/jobs.txt"

mkdir -p "$out"
rm -f "$out"/*.ptx "$out/MANIFEST.txt"
for seed in "${kept[@]}"; do cp "$stage/out/$seed" "$out/"; done
{
  echo "# Written by scripts/gen-fuzz-seeds.sh; do not edit. ${#kept[@]} seeds from ${#sources[@]} sources."
  echo "nvcc: $release"
  echo "builds: ${builds[*]}"
  echo "max bytes: $max_bytes"
  echo "left out:"
  for line in "${left_out[@]}"; do echo "  $line"; done
} >"$out/MANIFEST.txt"
echo "gen-fuzz-seeds.sh: ${#kept[@]} seeds ($(cat "$out"/*.ptx | wc -c) bytes) from ${#sources[@]} sources in $out, $release"
echo "gen-fuzz-seeds.sh: ${#left_out[@]} left out (see $out/MANIFEST.txt)"
