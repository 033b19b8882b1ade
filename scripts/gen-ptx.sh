#!/usr/bin/env bash
# Regenerates the committed PTX under workloads/ from the CUDA sources next to it.
#
# The build and the tests never need CUDA: the .ptx files are committed. Run this only after
# editing a workloads/*/*.cu, with the CUDA toolkit on PATH; the committed files were made with
# nvcc 13.0 (V13.0.88) and are exactly this script's output.
#
# Every build uses nvcc's default device optimisation (-O3 for device code, no -O flag given):
#   nvcc -ptx -arch=sm_75 NAME.cu -o NAME.ptx
#   nvcc -ptx -arch=sm_90 NAME.cu -o NAME.sm_90.ptx
# plus debug builds (sm_75) to exercise .file/.loc/.section .debug_* in the parser, and the C++
# parameter names that -G builds keep:
#   nvcc -ptx -arch=sm_75 -lineinfo mtx_mul_vec.cu -o mtx_mul_vec.lineinfo.ptx
#   nvcc -ptx -arch=sm_75 -G        reduce.cu      -o reduce.G.ptx
#   nvcc -ptx -arch=sm_75 -G        saxpy.cu       -o saxpy.G.ptx
#
# Reproducibility: nvcc writes the source's absolute path into debug output (.file, the
# DW_AT_comp_dir bytes of .debug_info) and hashes it into the names of internal-linkage
# functions, so each source is copied to the fixed staging directory $STAGE/<folder>/ and
# compiled there. The output then depends only on the source and the nvcc version, not on
# where this checkout lives.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! command -v nvcc >/dev/null 2>&1; then
    echo "gen-ptx.sh: nvcc not found on PATH; keeping the committed PTX under workloads/ as it is." >&2
    echo "gen-ptx.sh: (the build never needs CUDA; install the CUDA toolkit only to regenerate PTX.)" >&2
    exit 0
fi

echo "gen-ptx.sh: using $(nvcc --version | grep -o 'release [0-9.]*, V[0-9.]*')"

STAGE=/tmp/warpsim-gen-ptx
rm -rf "$STAGE"
trap 'rm -rf "$STAGE"' EXIT

# build FOLDER NAME SUFFIX [NVCC FLAGS...]
#   compiles workloads/FOLDER/NAME.cu to workloads/FOLDER/NAME.SUFFIX (via the staging copy).
build() {
    local folder="$1" name="$2" suffix="$3"
    shift 3
    mkdir -p "$STAGE/$folder"
    cp "$root/workloads/$folder/$name.cu" "$STAGE/$folder/$name.cu"
    echo "  (cd workloads/$folder && nvcc -ptx $* $name.cu -o $name.$suffix)"
    (cd "$STAGE/$folder" && nvcc -ptx "$@" "$name.cu" -o "$name.$suffix")
    cp "$STAGE/$folder/$name.$suffix" "$root/workloads/$folder/$name.$suffix"
}

for w in mtx_mul_vec dwt reduce histogram device_call branchy saxpy sgemm vector_ops; do
    build "$w" "$w" ptx       -arch=sm_75
    build "$w" "$w" sm_90.ptx -arch=sm_90
done

build mtx_mul_vec mtx_mul_vec lineinfo.ptx -arch=sm_75 -lineinfo
build reduce      reduce      G.ptx        -arch=sm_75 -G
build saxpy       saxpy       G.ptx        -arch=sm_75 -G

# The dataset kernels of docs/validation.md (workloads/measured/, our own versions written from
# the measured data's README), one build per Tile_Width present in the measurements:
#   nvcc -ptx -arch=sm_75 -D Tile_Width=T KERNEL.cu -o ptx/KERNEL-TT.ptx
measured_tiles() {
    case "$1" in
        matMul_gpu)                       echo 4 8 16 32 ;;
        matMul_gpu_uncoalesced)           echo 8 16 32 ;;
        matMul_gpu_sharedmem)             echo 4 8 12 16 20 24 28 32 ;;
        matMul_gpu_sharedmem_uncoalesced) echo 4 8 16 32 ;;
        *)                                echo 8 16 32 ;;
    esac
}
mkdir -p "$STAGE/measured/ptx" "$root/workloads/measured/ptx"
for k in matMul_gpu matMul_gpu_uncoalesced matMul_gpu_sharedmem matMul_gpu_sharedmem_uncoalesced \
         matrix_sum_coalesced matrix_sum_normal vectorAdd dotProd; do
    cp "$root/workloads/measured/$k.cu" "$STAGE/measured/$k.cu"
    for t in $(measured_tiles "$k"); do
        echo "  (cd workloads/measured && nvcc -ptx -arch=sm_75 -D Tile_Width=$t $k.cu -o ptx/$k-T$t.ptx)"
        (cd "$STAGE/measured" && nvcc -ptx -arch=sm_75 -D Tile_Width="$t" "$k.cu" -o "ptx/$k-T$t.ptx")
        cp "$STAGE/measured/ptx/$k-T$t.ptx" "$root/workloads/measured/ptx/$k-T$t.ptx"
    done
done

echo "gen-ptx.sh: done."
