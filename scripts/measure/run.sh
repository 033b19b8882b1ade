#!/usr/bin/env bash
# The measurement kit (docs/measuring.md): on a machine with an NVIDIA GPU, one command measures
# what profiles and validation need and writes CSVs ready to commit.
#
#   scripts/measure/run.sh [--out DIR] [--arch sm_XX] [--gpu-id ID] [--quick] [--full]
#                          [--budget-s S]
#
#   --out DIR     where the CSVs go (default workloads/measurements/<gpu-slug>/); raw/ below it
#                 keeps every benchmark's stdout and stderr, the commands and their status
#   --arch sm_XX  nvcc target (default: the detected compute capability)
#   --gpu-id ID   the gpu column of the CSVs (default: the slug, e.g. nvidia-h100-80gb-hbm3)
#   --quick       fewer sizes and repetitions (about a minute), for trying the kit out
#   --full        no time budget for the validation kernels (can take far longer)
#   --budget-s S  time budget of the validation kernels, seconds (default 150)
#
# Needs nvcc (NVCC, else PATH, else /usr/local/cuda/bin/nvcc) and python3; uses nvidia-smi
# when present. A benchmark that fails or runs past its time limit is recorded as such in
# raw/status.csv and summary.txt; the others still run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KIT=$ROOT/scripts/measure
OUT="" ARCH="" GPU_ID="" QUICK=0 BUDGET=150
while [ $# -gt 0 ]; do
  case $1 in
    --out) OUT=$2; shift 2 ;;
    --arch) ARCH=$2; shift 2 ;;
    --gpu-id) GPU_ID=$2; shift 2 ;;
    --quick) QUICK=1; BUDGET=30; shift ;;
    --full) BUDGET=0; shift ;;
    --budget-s) BUDGET=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$NVCC" ] || { echo "run.sh: nvcc not found (set NVCC)" >&2; exit 1; }
BUILD=$(mktemp -d /tmp/warpsim-measure.XXXXXX)
trap 'rm -rf "$BUILD"' EXIT
START=$(date +%s)

# 1. The device: a PTX-only build that the driver JIT-compiles for whatever GPU is there.
"$NVCC" -O2 -gencode arch=compute_75,code=compute_75 -o "$BUILD/devinfo" "$KIT/devinfo.cu"
"$BUILD/devinfo" > "$BUILD/devinfo.txt" || { echo "run.sh: no usable CUDA GPU (devinfo failed)" >&2; exit 1; }
field() { sed -n "s/^dev,$1,//p" "$BUILD/devinfo.txt"; }
NAME=$(field name)
CC=$(field compute_capability)
ARCH=${ARCH:-sm_${CC/./}}
SLUG=$(echo "$NAME" | tr '[:upper:]' '[:lower:]' | sed 's/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
OUT=${OUT:-$ROOT/workloads/measurements/$SLUG}
GPU_ID=${GPU_ID:-$SLUG}
RAW=$OUT/raw
mkdir -p "$RAW"
cp "$BUILD/devinfo.txt" "$RAW/devinfo.txt"
echo "run.sh: $NAME (cc $CC), -arch=$ARCH, output $OUT" >&2

SMI_FIELDS=name,driver_version,pstate,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw,power.limit,persistence_mode
smi() {
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=$SMI_FIELDS --format=csv > "$RAW/nvidia-smi-$1.csv" 2>&1 || true
  else
    echo "nvidia-smi not found" > "$RAW/nvidia-smi-$1.csv"
  fi
}
smi before
"$NVCC" --version > "$RAW/nvcc-version.txt"
{ uname -srm; echo "host: $(hostname)"; date -u +%Y-%m-%dT%H:%M:%SZ; } > "$RAW/host.txt"

# 2. Build everything at once (independent nvcc runs).
Q=$([ "$QUICK" = 1 ] && echo "--quick=1" || true)
declare -A SRC=(
  [mem_latency]=$KIT/mem_latency.cu [mem_bandwidth]=$KIT/mem_bandwidth.cu [inst]=$KIT/inst.cu
  [launch]=$KIT/launch.cu [validation]=$KIT/validation.cu
  [dwt]=$ROOT/workloads/measurements/dwt_timing.cu)
declare -A ARGS=(
  [mem_latency]="$Q" [mem_bandwidth]="$([ "$QUICK" = 1 ] && echo --reps=3 || true)"
  [inst]="$([ "$QUICK" = 1 ] && echo --reps=3 || true)" [launch]=""
  [validation]="--budget-s=$BUDGET $Q" [dwt]="")
declare -A LIMIT=([mem_latency]=120 [mem_bandwidth]=60 [inst]=60 [launch]=60 [dwt]=120
  [validation]=$(( BUDGET > 0 ? BUDGET + 90 : 3600 )))
BENCHES="launch inst mem_latency mem_bandwidth dwt validation"
: > "$RAW/commands.txt"
for b in $BENCHES; do
  opt=-O3; [ "$b" = dwt ] && opt=-O2   # the DWT harness as its README built it
  cmd="nvcc $opt -arch=$ARCH -o BUILD/$b ${SRC[$b]#"$ROOT"/}"
  echo "$cmd" >> "$RAW/commands.txt"
  (cd "$ROOT" && "$NVCC" $opt -arch="$ARCH" -o "$BUILD/$b" "${SRC[$b]}" > "$RAW/$b.build.log" 2>&1) &
done
wait || true

# 3. Run them one after the other, each under its time limit.
echo "bench,status,exit_code,seconds,command" > "$RAW/status.csv"
for b in $BENCHES; do
  cmd="BUILD/$b ${ARGS[$b]}"
  echo "timeout ${LIMIT[$b]} $cmd > raw/$b.txt" >> "$RAW/commands.txt"
  if [ ! -x "$BUILD/$b" ]; then
    echo "$b,not_built,,0,\"$cmd\"" >> "$RAW/status.csv"; : > "$RAW/$b.txt"; continue
  fi
  t0=$(date +%s%N)
  rc=0
  # shellcheck disable=SC2086
  timeout --kill-after=10 "${LIMIT[$b]}" "$BUILD/$b" ${ARGS[$b]} > "$RAW/$b.txt" 2> "$RAW/$b.err" || rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  secs=$((ms / 1000)).$(( (ms % 1000) / 100 ))
  st=ok; [ $rc -ne 0 ] && st=failed; { [ $rc -eq 124 ] || [ $rc -eq 137 ]; } && st=timeout
  printf '%s,%s,%s,%s,"%s"\n' "$b" "$st" "$rc" "$secs" "$cmd" >> "$RAW/status.csv"
  echo "run.sh: $b $st ($secs s)" >&2
done
smi after
echo "total_seconds,$(( $(date +%s) - START ))" > "$RAW/elapsed.csv"

# 4. Raw output -> CSVs and summary.txt.
python3 "$KIT/parse.py" "$RAW" --out "$OUT" --gpu "$GPU_ID"
echo "run.sh: done in $(( $(date +%s) - START )) s; see $OUT/summary.txt" >&2
