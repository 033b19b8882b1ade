// Pipe-bound kernels (docs/validation.md, "Pipe physics"; workloads/pipes/README.md): one kernel
// per execution pipe class of the pipes model (include/warpsim/isa/pipes.hpp), each bound by that
// class alone when enough warps run.
//
// Every kernel has the same shape:
//   - one parameter `iters` (the loop's trip count, a run-time value, so the PTX keeps a real
//     loop) and one output pointer;
//   - kChains = 8 independent dependency chains per thread (instruction-level parallelism);
//   - per loop iteration, kDepth = 8 steps of every chain: 64 instructions of the class, one
//     volatile inline-PTX statement each, against 3 of loop overhead (add, setp, bra);
//   - after the loop, one 4-byte store per thread of a fold of the chains, so nothing is dead.
// The loop is kept rolled (#pragma unroll 1) so that its body is exactly the 64 instructions.
//
// Work per thread = iters x kChains x kDepth instructions of the class (fp16x2: x 2 results;
// the tensor kernels count per warp: iters x kChains x kDepth mma instructions of M*N*K FMAs).
// scripts/validate_pipes.py holds the same numbers in its KERNELS table.
//
// Build (the committed pipe_bound.ptx is exactly this):  nvcc -arch=sm_80 -ptx pipe_bound.cu
// The GPU harness scripts/measure/pipes.cu #includes this file.
#include <cstdint>

#define PIPE_CHAINS 8
#define PIPE_DEPTH 8

// Loop body: kDepth rounds, each one step of every chain (chain k's steps are dependent, the
// chains are independent of each other).
#define PIPE_BODY(STEP)                                  \
    _Pragma("unroll") for (int d_ = 0; d_ < PIPE_DEPTH; d_++)  \
    _Pragma("unroll") for (int k_ = 0; k_ < PIPE_CHAINS; k_++) STEP(k_)

// ---- fp32: fma.rn.f32 -> FFMA ------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256) pipe_fp32(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) x[k] = 1.0f + 1e-3f * (float)(t + k);
#define STEP(k) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x[k]) : "f"(0.999f), "f"(1e-3f))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s += x[k];
    out[t] = s;
}

// ---- fp64: fma.rn.f64 -> DFMA ------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256) pipe_fp64(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    double x[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) x[k] = 1.0 + 1e-3 * (double)(t + k);
#define STEP(k) asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(x[k]) : "d"(0.999), "d"(1e-3))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
    double s = 0.0;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s += x[k];
    out[t] = (float)s;
}

// ---- sfu: rsqrt.approx.ftz.f32 -> MUFU.RSQ (the .ftz form is one MUFU, no denormal fix-up) ---
extern "C" __global__ void __launch_bounds__(256) pipe_sfu(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) x[k] = 2.0f + (float)(t + k);
#define STEP(k) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x[k]))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s += x[k];
    out[t] = s;
}

// ---- int: xor.b32 and shr.u32 alternating (a xor-shift) -> LOP3, SHF --------------------------
// Each chain is a <- a ^ (a >> 1), as two PTX instructions: b = a >> 1 (shr.u32), a = a ^ b
// (xor.b32). No SASS instruction does both, and each result feeds the next, so each PTX
// instruction stays one SASS instruction on the integer (ALU) pipe. Adds would not: ptxas fuses
// two dependent adds into one IADD3, and on sm_90 it moves most 32-bit adds of such a loop to
// the FMA pipe as IMAD.IADD (28 of 32 in an add/xor version of this kernel).
extern "C" __global__ void __launch_bounds__(256) pipe_int(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t a[PIPE_CHAINS], b[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) a[k] = t * 0x9e3779b1u + 0x1234u * k, b[k] = 0u;
#pragma unroll 1
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int d = 0; d < PIPE_DEPTH / 2; d++) {
#pragma unroll
            for (int k = 0; k < PIPE_CHAINS; k++)
                asm volatile("shr.u32 %0, %1, 1;" : "=r"(b[k]) : "r"(a[k]));
#pragma unroll
            for (int k = 0; k < PIPE_CHAINS; k++)
                asm volatile("xor.b32 %0, %0, %1;" : "+r"(a[k]) : "r"(b[k]));
        }
    }
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s ^= a[k] ^ b[k];
    out[t] = __uint_as_float(s);
}

// ---- imad: mad.lo.s32 -> IMAD ------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256) pipe_imad(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) x[k] = t + 0x1234u * k;
#define STEP(k) asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(0x9e3779b1u), "r"(12345u))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s ^= x[k];
    out[t] = __uint_as_float(s);
}

// ---- fp16x2: fma.rn.f16x2 -> HFMA2 (two f16 results per thread and instruction) ---------------
extern "C" __global__ void __launch_bounds__(256) pipe_fp16x2(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x[PIPE_CHAINS];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) x[k] = 0x3c003c00u + ((t + k) & 0xffu);
    // x = x * 0.999 + 0.001 in both halves (0x3bfe = 0.999, 0x1419 = 0.001 in f16)
#define STEP(k) asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x[k]) : "r"(0x3bfe3bfeu), "r"(0x14191419u))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s ^= x[k];
    out[t] = __uint_as_float(s);
}

// ---- tensor: mma.sync m16n8k16, f16 inputs, f32 accumulators -> HMMA.16816.F32 (sm_80+) -------
// Each chain is one 16x8 f32 accumulator tile (4 registers per thread) fed back into the next
// mma; A and B are loop-invariant registers. 16*8*16 = 2048 FMAs per warp-instruction.
extern "C" __global__ void __launch_bounds__(256) pipe_tensor(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float d[PIPE_CHAINS][4];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++)
#pragma unroll
        for (int j = 0; j < 4; j++) d[k][j] = 1e-3f * (float)((t + k + j) & 0xff);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    // A = 1.0 everywhere, B = 2^-8 (small, so the accumulators stay finite); from t so that
    // they are registers, not immediates.
    const uint32_t a0 = 0x3c003c00u | (t >> 30), b0 = 0x1c001c00u | (t >> 30);
#define STEP(k)                                                                                   \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "              \
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                         \
                 : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])                     \
                 : "r"(a0), "r"(a0), "r"(a0), "r"(a0), "r"(b0), "r"(b0))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
#endif
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    out[t] = s;
}

// ---- tensor_k8: mma.sync m16n8k8, f16 inputs, f32 accumulators -> HMMA.1688.F32 (sm_75+) ------
// The Turing shape (CC 7.5 has no m16n8k16): 16*8*8 = 1024 FMAs per warp-instruction.
extern "C" __global__ void __launch_bounds__(256) pipe_tensor_k8(int iters, float *out)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float d[PIPE_CHAINS][4];
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++)
#pragma unroll
        for (int j = 0; j < 4; j++) d[k][j] = 1e-3f * (float)((t + k + j) & 0xff);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
    const uint32_t a0 = 0x3c003c00u | (t >> 30), b0 = 0x1c001c00u | (t >> 30);
#define STEP(k)                                                                                   \
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "               \
                 "{%4,%5}, {%6}, {%0,%1,%2,%3};"                                                  \
                 : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])                     \
                 : "r"(a0), "r"(a0), "r"(b0))
#pragma unroll 1
    for (int i = 0; i < iters; i++) { PIPE_BODY(STEP); }
#undef STEP
#endif
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PIPE_CHAINS; k++) s += d[k][0] + d[k][1] + d[k][2] + d[k][3];
    out[t] = s;
}
