#!/usr/bin/env bash
# Compiles every .cu of the measurement kit (scripts/measure/, docs/measuring.md) with nvcc for
# sm_75 and sm_90, host code included, and, where cuobjdump is at hand, checks that the sm_90
# SASS has the instructions each benchmark means to time. Exit 77 (skipped) without nvcc.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then echo "nvcc not found: skipped"; exit 77; fi
TMP=$(mktemp -d "${TEST_TMPDIR:-/tmp}/measure-compile.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

pids=() names=()
for cu in "$ROOT"/scripts/measure/*.cu "$ROOT"/workloads/measurements/dwt_timing.cu; do
  for arch in sm_75 sm_90; do
    n=$(basename "$cu" .cu).$arch
    "$NVCC" -O3 -arch=$arch -c -o "$TMP/$n.o" "$cu" > "$TMP/$n.log" 2>&1 &
    pids+=($!) names+=("$n")
  done
done
fail=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then echo "FAIL: ${names[$i]}"; cat "$TMP/${names[$i]}.log"; fail=1; fi
done
[ $fail = 0 ] || exit 1
echo "compiled ${#names[@]} builds"

CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")}
if [ ! -x "$CUOBJDUMP" ]; then echo "cuobjdump not found: SASS check skipped"; exit 0; fi
# kernel (mangled-name fragment) -> opcode it must contain, at least N times
check() {
  local cubin=$1 fun=$2 op=$3 min=$4 n
  n=$("$CUOBJDUMP" -sass "$cubin" | awk -v f="$fun" '/Function :/{on = index($0, f) > 0} on' | grep -cE "^\s+/\*[0-9a-f]+\*/\s+$op" || true)
  if [ "$n" -lt "$min" ]; then echo "FAIL: $fun has $n '$op', expected >= $min"; exit 1; fi
}
"$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/inst.cubin" "$ROOT/scripts/measure/inst.cu"
"$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/lat.cubin" "$ROOT/scripts/measure/mem_latency.cu"
"$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/bw.cubin" "$ROOT/scripts/measure/mem_bandwidth.cu"
"$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/pipes.cubin" "$ROOT/scripts/measure/pipes.cu"
# latency: 32 per loop body; throughput: 32 x ILP (8, or 4 for MMA)
check "$TMP/inst.cubin" latencyI4Fp32 'FFMA ' 32
check "$TMP/inst.cubin" throughputI4Fp32 'FFMA ' 256
check "$TMP/inst.cubin" latencyI4Fp64 'DFMA ' 32
check "$TMP/inst.cubin" throughputI4Fp64 'DFMA ' 256
check "$TMP/inst.cubin" latencyI6Fp16x2 'HFMA2 ' 32
check "$TMP/inst.cubin" throughputI6Fp16x2 'HFMA2 ' 256
# ptxas may merge two dependent PTX adds into one IADD3 (it does here): half is the floor
check "$TMP/inst.cubin" latencyI6IntAdd '(IADD3|IMAD\.IADD) ' 16
check "$TMP/inst.cubin" throughputI6IntAdd '(IADD3|IMAD\.IADD) ' 128
check "$TMP/inst.cubin" latencyI4Imad 'IMAD ' 32
check "$TMP/inst.cubin" throughputI4Imad 'IMAD ' 256
check "$TMP/inst.cubin" latencyI3Sfu 'MUFU\.RSQ' 32
check "$TMP/inst.cubin" throughputI3Sfu 'MUFU\.RSQ' 256
check "$TMP/inst.cubin" latencyI3Mma 'HMMA\.16816\.F32' 32
check "$TMP/inst.cubin" throughputI3Mma 'HMMA\.16816\.F32' 128
check "$TMP/lat.cubin" chase_globalILb0 'LDG\.E\.64 ' 16
check "$TMP/lat.cubin" chase_globalILb1 'LDG\.E\.64\.STRONG\.GPU ' 16
check "$TMP/lat.cubin" chase_shared 'LDS ' 16
check "$TMP/lat.cubin" chase_constant 'U?LDC R?U?R[0-9]+, c\[0x3\]' 16
check "$TMP/bw.cubin" stream 'LDG\.E\.128\.STRONG\.GPU' 1
check "$TMP/bw.cubin" l1_read 'LDG\.E\.128 ' 1
check "$TMP/bw.cubin" shared_stream 'LDS\.128' 1
check "$TMP/bw.cubin" shared_stream 'STS\.128' 1
# pipes.cu (workloads/pipes/pipe_bound.cu): 64 of the class per loop iteration, one SASS each
# (pipe_tensor's section also takes in pipe_tensor_k8's, which has no HMMA.16816)
check "$TMP/pipes.cubin" pipe_fp32 'FFMA ' 64
check "$TMP/pipes.cubin" pipe_fp64 'DFMA ' 64
check "$TMP/pipes.cubin" pipe_sfu 'MUFU\.RSQ ' 64
check "$TMP/pipes.cubin" pipe_int 'LOP3\.LUT ' 32
check "$TMP/pipes.cubin" pipe_int 'SHF\.R\.U32\.HI ' 32
check "$TMP/pipes.cubin" pipe_imad 'IMAD ' 64
check "$TMP/pipes.cubin" pipe_fp16x2 'HFMA2 ' 64
check "$TMP/pipes.cubin" pipe_tensor_k8 'HMMA\.1688\.F32 ' 64
check "$TMP/pipes.cubin" pipe_tensor 'HMMA\.16816\.F32 ' 64
echo "SASS checks passed"
