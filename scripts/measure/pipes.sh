#!/usr/bin/env bash
# GPU times of the pipe-bound kernels (workloads/pipes/pipe_bound.cu) at the launch
# scripts/validate_pipes.py predicts (docs/validation.md, "Pipe physics"; docs/measuring.md):
# builds scripts/measure/pipes.cu with the local nvcc for the detected GPU and writes
#
#   DIR/pipes.csv        pipes,KERNEL,GRID,BLOCK,ITER,MS  (median of 5 after 1 warm-up)
#   DIR/pipes.raw.txt    the harness's whole output ('#' lines: device, registers, occupancy,
#                        min/max of the repetitions), the nvcc command, nvidia-smi before/after
#
#   scripts/measure/pipes.sh --out DIR [--arch sm_XX]
#
# A few seconds of GPU time on an H100 (estimate: the slowest kernels, SFU and tensor, about
# 0.07 s a launch at the tables' rates; 8 kernels x 6 launches), plus the build (~10 s).
# Then:  scripts/validate-pipes.sh --measured DIR/pipes.csv --measured-gpu h100
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT="" ARCH=""
while [ $# -gt 0 ]; do
  case $1 in
    --out) OUT=$2; shift 2 ;;
    --arch) ARCH=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "pipes.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$OUT" ] || { echo "pipes.sh: --out DIR is required" >&2; exit 2; }
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "pipes.sh: nvcc not found (set NVCC)" >&2; exit 1; }
BUILD=$(mktemp -d /tmp/warpsim-pipes.XXXXXX)
trap 'rm -rf "$BUILD"' EXIT
mkdir -p "$OUT"

if [ -z "$ARCH" ]; then
  # The device's compute capability: devinfo as compute_75 PTX runs (JIT) on any GPU.
  "$NVCC" -O2 -gencode arch=compute_75,code=compute_75 -o "$BUILD/devinfo" "$ROOT/scripts/measure/devinfo.cu"
  "$BUILD/devinfo" > "$BUILD/devinfo.txt" || { echo "pipes.sh: no usable CUDA GPU (devinfo failed)" >&2; exit 1; }
  CC=$(sed -n 's/^dev,compute_capability,//p' "$BUILD/devinfo.txt")
  ARCH=sm_${CC/./}
fi
RAW=$OUT/pipes.raw.txt
cmd="nvcc -O3 -arch=$ARCH -o BUILD/pipes scripts/measure/pipes.cu"
{ echo "# $cmd"; "$NVCC" --version | sed 's/^/# /'; } > "$RAW"
(cd "$ROOT" && "$NVCC" -O3 -arch="$ARCH" -o "$BUILD/pipes" scripts/measure/pipes.cu)
smi() {
  command -v nvidia-smi > /dev/null &&
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv 2>&1 |
      sed "s/^/# nvidia-smi $1: /" >> "$RAW" || true
}
smi before
timeout --kill-after=10 120 "$BUILD/pipes" | tee -a "$RAW" | grep '^pipes,' > "$OUT/pipes.csv"
smi after
echo "pipes.sh: $(wc -l < "$OUT/pipes.csv") kernels timed, $OUT/pipes.csv" >&2
