#!/usr/bin/env bash
# Writes the SASS fixtures of tests/sass/fixtures/ (docs/sass.md): our own PTX compiled by ptxas
# and listed by `nvdisasm -c -hex -g`, with a README.md that names both tools' releases. The
# sass_tests read them; the fuzz target sass_listing_fuzzer takes them as seeds.
#
#   scripts/sass-fixtures.sh            regenerate tests/sass/fixtures/
#   scripts/sass-fixtures.sh --check    regenerate into a temporary folder and compare: exit 0 when
#                                       current, 1 when stale, 77 (skipped) without ptxas or
#                                       nvdisasm, or with other releases than the README names
#
# Tools: $PTXAS, else ptxas on PATH, else /usr/local/cuda/bin/ptxas; $NVDISASM, else nvdisasm on
# PATH, else build/sass-tools/bin/nvdisasm (scripts/install-deps.sh --test-tools), else the CUDA
# toolkit's. Listings do not depend on the checkout's path: nvdisasm prints no file names but
# the ones the PTX's .file lines give.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
committed=tests/sass/fixtures

# One row per fixture: PTX source, architecture, output name. Add rows here (and run the script).
rows=(
  "workloads/sgemm/sgemm.ptx sm_75 sgemm.sm_75.sass"
  "workloads/sgemm/sgemm.ptx sm_80 sgemm.sm_80.sass"
  "workloads/sgemm/sgemm.ptx sm_90 sgemm.sm_90.sass"
  "tests/ptx/nvcc/device_call.sm_80.lineinfo.ptx sm_80 device_call.sm_80.sass"
  "tests/ptx/nvcc/histogram.sm_80.lineinfo.ptx sm_80 histogram.sm_80.sass"
  "tests/ptx/pipes/mma.ptx sm_80 mma.sm_80.sass"
  "tests/ptx/pipes/mma.ptx sm_90 mma.sm_90.sass"
  # Line-marked copies (ptx/line_markers.hpp; tests/workload/sass_stream_test.cpp keeps them
  # current): each SASS instruction names its PTX line, for the mapping tests.
  "tests/sass/kernels/mapping.sm_80.marked.ptx sm_80 mapping.sm_80.sass"
  "tests/sass/kernels/sgemm.sm_80.marked.ptx sm_80 sgemm_marked.sm_80.sass"
  "tests/sass/kernels/ifconv.marked.ptx sm_80 ifconv.sm_80.sass"
)
ptxas_flags=(-O3 -lineinfo)

mode=write
case "${1:-}" in
  --check) mode=check ;;
  '') ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

tool() {  # tool NAME OVERRIDE FALLBACK...: the first that runs
  local name="$1" override="$2"
  shift 2
  for candidate in "$override" "$(command -v "$name" || true)" "$@"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
  done
}
ptxas="$(tool ptxas "${PTXAS:-}" /usr/local/cuda/bin/ptxas)"
nvdisasm="$(tool nvdisasm "${NVDISASM:-}" build/sass-tools/bin/nvdisasm /usr/local/cuda/bin/nvdisasm)"
if [ -z "$ptxas" ] || [ -z "$nvdisasm" ]; then
  echo "sass-fixtures.sh: ptxas or nvdisasm not found (PTXAS, NVDISASM, PATH, /usr/local/cuda/bin)" >&2
  [ "$mode" = check ] && exit 77
  exit 1
fi
ptxas_version="$("$ptxas" --version | tail -2 | head -1)"
nvdisasm_version="$("$nvdisasm" --version | tail -2 | head -1)"

if [ "$mode" = check ]; then
  # Other releases write other code: nothing to compare.
  for pair in "ptxas:$ptxas_version" "nvdisasm:$nvdisasm_version"; do
    if ! grep -qxF -- "- ${pair%%:*}: ${pair#*:}" "$committed/README.md" 2>/dev/null; then
      echo "sass-fixtures.sh: $committed was made by another ${pair%%:*} than ${pair#*:} (skipped)"
      exit 77
    fi
  done
  out="$(mktemp -d)"
else
  out="$committed"
  mkdir -p "$out"
  rm -f "$out"/*.sass
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"; [ "$mode" = write ] || rm -rf "$out"' EXIT
table=""
for row in "${rows[@]}"; do
  read -r ptx arch name <<<"$row"
  "$ptxas" -arch="$arch" "${ptxas_flags[@]}" "$ptx" -o "$work/k.cubin"
  "$nvdisasm" -c -hex -g "$work/k.cubin" >"$out/$name"
  table+="| \`$name\` | \`$ptx\` | $arch |"$'\n'
done

cat >"$out/README.md" <<README
# SASS fixtures

Written by \`scripts/sass-fixtures.sh\`; do not edit. Each file is \`nvdisasm -c -hex -g\` of
\`ptxas -arch=ARCH ${ptxas_flags[*]} PTX\`, from the project's own PTX. The ctest
\`SassFixturesCurrent\` (\`scripts/sass-fixtures.sh --check\`) fails when they differ from what
these releases write; with other releases, or without the tools, it reports itself skipped.

- ptxas: $ptxas_version
- nvdisasm: $nvdisasm_version

| fixture | PTX | arch |
|---|---|---|
$table
README

if [ "$mode" = check ]; then
  if diff -r "$committed" "$out" >/dev/null; then
    echo "sass-fixtures.sh: $committed is current"
    exit 0
  fi
  diff -r "$committed" "$out" | head -20
  echo "sass-fixtures.sh: $committed is stale: run scripts/sass-fixtures.sh" >&2
  exit 1
fi
echo "sass-fixtures.sh: wrote ${#rows[@]} fixtures to $out"
