#!/usr/bin/env bash
# Regenerates the nvcc seeds of the PTX fuzzers: every CUDA source committed under workloads/ and
# tests/, compiled to PTX for several architectures in three kinds of build, written as
# fuzz/corpus/ptx_parser_fuzzer/nvcc_<name>.<arch>.<build>.ptx and the same file in
# fuzz/corpus/ptx_lowering_fuzzer/ (docs/fuzzing.md, "Seed corpora").
#
#   scripts/gen-fuzz-seeds.sh
#   SEED_ARCHES="sm_75 sm_90" scripts/gen-fuzz-seeds.sh      # other architectures
#
# The builds, for each architecture (default sm_75 sm_80 sm_90; nvcc 13 compiles sm_75 and newer):
#   O3        nvcc -ptx -arch=ARCH           NAME.cu   (nvcc's default device optimisation, -O3)
#   G         nvcc -ptx -arch=ARCH -G        NAME.cu   (debug: no optimisation, .loc, DWARF sections)
#   lineinfo  nvcc -ptx -arch=ARCH -lineinfo NAME.cu   (optimised, with .file/.loc line tables)
#
# A seed larger than SEED_MAX_BYTES (default 65536, the short run's -max_len) is left out: the
# fuzzers would only see its first bytes, and big seeds slow the lowering fuzzer down. So is a seed
# whose text another seed already has, here or among the other files of the parser's corpus. Every earlier nvcc_*.ptx seed is removed first, so the
# corpora hold exactly this script's output.
#
# The build and the tests never need CUDA and the seeds are committed: run this after adding or
# editing a .cu file, with the CUDA toolkit on PATH. Without nvcc it changes nothing and exits 0.
# As in scripts/gen-ptx.sh, each source is compiled in a fixed staging folder, so that the paths
# nvcc writes into debug output (and hashes into internal names) do not depend on the checkout.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! command -v nvcc >/dev/null 2>&1; then
  echo "gen-fuzz-seeds.sh: nvcc not found on PATH; keeping the committed seeds in fuzz/corpus/ as they are." >&2
  exit 0
fi

read -r -a arches <<< "${SEED_ARCHES:-sm_75 sm_80 sm_90}"
max_bytes="${SEED_MAX_BYTES:-65536}"
case "$max_bytes" in
  '' | *[!0-9]*) echo "gen-fuzz-seeds.sh: SEED_MAX_BYTES must be a number of bytes" >&2; exit 2 ;;
esac
corpora=(fuzz/corpus/ptx_parser_fuzzer fuzz/corpus/ptx_lowering_fuzzer)

echo "gen-fuzz-seeds.sh: using $(nvcc --version | grep -o 'release [0-9.]*, V[0-9.]*'), arches ${arches[*]}"

stage=/tmp/warpsim-gen-fuzz-seeds
rm -rf "$stage"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/out"

mapfile -t sources < <(find workloads tests -name '*.cu' | LC_ALL=C sort)
if [ ${#sources[@]} -eq 0 ]; then
  echo "gen-fuzz-seeds.sh: no .cu files under workloads/ or tests/" >&2
  exit 1
fi

kept=0
skipped=()
for source in "${sources[@]}"; do
  name="$(basename "$source" .cu)"
  folder="$stage/src/$(dirname "$source")"
  mkdir -p "$folder"
  cp "$source" "$folder/"
  for arch in "${arches[@]}"; do
    for build in O3 G lineinfo; do
      flags=(-ptx "-arch=$arch")
      case "$build" in
        G) flags+=(-G) ;;
        lineinfo) flags+=(-lineinfo) ;;
      esac
      seed="nvcc_$name.$arch.$build.ptx"
      if ! (cd "$folder" && nvcc "${flags[@]}" "$name.cu" -o "$stage/out/$seed") 2>"$stage/nvcc.log"; then
        skipped+=("$seed (nvcc failed: $(head -n 1 "$stage/nvcc.log"))")
        continue
      fi
      size="$(wc -c < "$stage/out/$seed")"
      if [ "$size" -gt "$max_bytes" ]; then
        skipped+=("$seed ($size bytes, above $max_bytes)")
        rm "$stage/out/$seed"
        continue
      fi
      # Already a seed: one made here, or a committed .ptx copied into the corpus (dwt_dwt.ptx).
      for other in "$stage/out/"*.ptx "${corpora[0]}"/*.ptx; do
        case "$(basename "$other")" in nvcc_*) [ "$(dirname "$other")" = "$stage/out" ] || continue ;; esac
        if [ "$other" != "$stage/out/$seed" ] && cmp -s "$other" "$stage/out/$seed"; then
          skipped+=("$seed (the same text as $(basename "$other"))")
          rm "$stage/out/$seed"
          break
        fi
      done
      [ -f "$stage/out/$seed" ] && kept=$((kept + 1))
    done
  done
done

for corpus in "${corpora[@]}"; do
  mkdir -p "$corpus"
  rm -f "$corpus"/nvcc_*.ptx
  cp "$stage/out/"*.ptx "$corpus/"
done

echo "gen-fuzz-seeds.sh: $kept seeds ($(cat "$stage/out/"*.ptx | wc -c) bytes) in each of ${corpora[*]}"
if [ ${#skipped[@]} -ne 0 ]; then
  echo "gen-fuzz-seeds.sh: left out:"
  printf '  %s\n' "${skipped[@]}"
fi
