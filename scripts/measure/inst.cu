// Per instruction class (docs/measuring.md): dependent-issue latency and throughput, in SM
// cycles from clock64(), and the SM clock itself.
//   latency:    one warp, one chain x = op(x, ...) of OPS dependent instructions per thread.
//   throughput: one 1024-thread block per SM (a dynamic shared-memory request keeps a second
//               block off), each thread running ILP independent chains; cycles between two
//               __syncthreads, the median over the blocks.
// Each instruction is one volatile PTX asm statement whose result feeds the next, and the
// results are kept, so the compiler can neither drop nor merge them; tests/measure checks the
// SASS opcodes. Tensor MMA is mma.sync m16n8k16 (sm_80+) or m16n8k8 (sm_75), fp16 in, fp32
// accumulate; on sm_90 it is not the wgmma peak.
//
// Records:  ilat,CLASS,INSTR,REP,OPS,CYCLES
//           itput,CLASS,INSTR,REP,BLOCKS,SMS,WARP_INSTRS,CYCLES,FLOPS_PER_WARP_INSTR
//           clk,REP,CYCLES,MS           (a spin of CYCLES clock64 cycles, cudaEvent-timed)
#include <cstdint>

#include "common.cuh"

constexpr int kUnroll = 32;

struct Fp32 {
    struct S { float x; };
    static constexpr const char *name = "fp32", *instr = "fma.rn.f32";
    static constexpr int flops = 64;
    __device__ static void init(S &s, int i) { s.x = 1.0f + 1e-3f * i; }
    __device__ static void step(S &s)
    {
        asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(s.x) : "f"(0.999f), "f"(1e-3f));
    }
    __device__ static uint32_t fold(const S &s) { return __float_as_uint(s.x); }
};
struct Fp64 {
    struct S { double x; };
    static constexpr const char *name = "fp64", *instr = "fma.rn.f64";
    static constexpr int flops = 64;
    __device__ static void init(S &s, int i) { s.x = 1.0 + 1e-3 * i; }
    __device__ static void step(S &s)
    {
        asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(s.x) : "d"(0.999), "d"(1e-3));
    }
    __device__ static uint32_t fold(const S &s) { return (uint32_t)__double_as_longlong(s.x); }
};
struct Fp16x2 {
    struct S { uint32_t x; };
    static constexpr const char *name = "fp16x2", *instr = "fma.rn.f16x2";
    static constexpr int flops = 128;
    __device__ static void init(S &s, int i) { s.x = 0x3c003c00u + i; }
    __device__ static void step(S &s)
    {   // x = x * 0.999 + 0.001 in both halves
        asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(s.x) : "r"(0x3bfe3bfeu), "r"(0x14191419u));
    }
    __device__ static uint32_t fold(const S &s) { return s.x; }
};
struct IntAdd {
    struct S { uint32_t x, y; };
    static constexpr const char *name = "int_add", *instr = "add.s32";
    static constexpr int flops = 0;
    __device__ static void init(S &s, int i) { s.x = i; s.y = 2 * i + 1; }
    // Fibonacci, (x, y) <- (y, x + y): an add of a loop-invariant operand would be folded
    // (x + n*y), this chain cannot be; each add needs the one before it.
    __device__ static void step(S &s)
    {
        uint32_t t;
        asm volatile("add.s32 %0, %1, %2;" : "=r"(t) : "r"(s.x), "r"(s.y));
        s.x = s.y;
        s.y = t;
    }
    __device__ static uint32_t fold(const S &s) { return s.x ^ s.y; }
};
struct Imad {
    struct S { uint32_t x; };
    static constexpr const char *name = "imad", *instr = "mad.lo.s32";
    static constexpr int flops = 0;
    __device__ static void init(S &s, int i) { s.x = i; }
    __device__ static void step(S &s)
    {
        asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(s.x) : "r"(0x9e3779b1u), "r"(12345u));
    }
    __device__ static uint32_t fold(const S &s) { return s.x; }
};
struct Sfu {
    struct S { float x; };
    static constexpr const char *name = "sfu", *instr = "rsqrt.approx.ftz.f32";
    static constexpr int flops = 0;
    __device__ static void init(S &s, int i) { s.x = 2.0f + i; }
    __device__ static void step(S &s) { asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(s.x)); }
    __device__ static uint32_t fold(const S &s) { return __float_as_uint(s.x); }
};
struct Mma {
    struct S { uint32_t a[4], b[2]; float d[4]; };
    static constexpr const char *name = "tensor_mma", *instr = "mma.sync.m16n8k16.f32.f16";
    static constexpr int flops = 2 * 16 * 8 * 16;
    __device__ static void init(S &s, int i)
    {
        for (int k = 0; k < 4; k++) s.a[k] = 0x3c003c00u, s.d[k] = 1e-3f * (i + k);
        s.b[0] = s.b[1] = 0x1c001c00u; // small, so the accumulators stay finite
    }
    __device__ static void step(S &s)
    {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(s.d[0]), "+f"(s.d[1]), "+f"(s.d[2]), "+f"(s.d[3])
                     : "r"(s.a[0]), "r"(s.a[1]), "r"(s.a[2]), "r"(s.a[3]), "r"(s.b[0]), "r"(s.b[1]));
#elif defined(__CUDA_ARCH__)
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                     "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                     : "+f"(s.d[0]), "+f"(s.d[1]), "+f"(s.d[2]), "+f"(s.d[3])
                     : "r"(s.a[0]), "r"(s.a[1]), "r"(s.b[0]));
#endif
    }
    __device__ static uint32_t fold(const S &s) { return __float_as_uint(s.d[0] + s.d[1] + s.d[2] + s.d[3]); }
};

template <class Op>
__global__ void latency(int iters, uint32_t magic, long long *cycles, uint32_t *sink)
{
    typename Op::S s;
    Op::init(s, threadIdx.x);
    __syncwarp();
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < kUnroll; u++) Op::step(s);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) *cycles = t1 - t0;
    if (Op::fold(s) == magic) *sink = Op::fold(s); // magic is a run-time 0: keeps the chain
}

template <class Op, int ILP>
__global__ void throughput(int iters, uint32_t magic, long long *cycles, int *smid, uint32_t *sink)
{
    typename Op::S s[ILP];
#pragma unroll
    for (int k = 0; k < ILP; k++) Op::init(s[k], threadIdx.x * ILP + k);
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < kUnroll; u++)
#pragma unroll
            for (int k = 0; k < ILP; k++) Op::step(s[k]);
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0) {
        cycles[blockIdx.x] = t1 - t0;
        unsigned id;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        smid[blockIdx.x] = (int)id;
    }
    uint32_t f = 0;
#pragma unroll
    for (int k = 0; k < ILP; k++) f ^= Op::fold(s[k]);
    if (f == magic) *sink = f;
}

__global__ void spin(long long n, long long *cycles)
{
    long long t0 = clock64(), t1 = t0;
    while (t1 - t0 < n) t1 = clock64();
    *cycles = t1 - t0;
}

static long long *g_cycles;
static int *g_smid;
static uint32_t *g_sink;

// The shape the device code picked: sm_75 has only m16n8k8 (half the work per instruction).
template <class Op> static const char *instr_of(int) { return Op::instr; }
template <class Op> static int flops_of(int) { return Op::flops; }
template <> const char *instr_of<Mma>(int cc) { return cc < 80 ? "mma.sync.m16n8k8.f32.f16" : Mma::instr; }
template <> int flops_of<Mma>(int cc) { return cc < 80 ? Mma::flops / 2 : Mma::flops; }

template <class Op, int ILP>
static void measure(const DeviceFacts &d, int reps, int lat_iters, int tput_iters)
{
    const int cc = d.prop.major * 10 + d.prop.minor;
    for (int r = 0; r < reps; r++) {
        latency<Op><<<1, 32>>>(lat_iters, 0u, g_cycles, g_sink);
        CK(cudaGetLastError());
        long long c = 0;
        CK(cudaMemcpy(&c, g_cycles, sizeof c, cudaMemcpyDeviceToHost));
        record("ilat,%s,%s,%d,%d,%lld", Op::name, instr_of<Op>(cc), r, lat_iters * kUnroll, c);
    }
    // One block per SM: ask for more than half of an SM's shared memory.
    size_t smem = std::min<size_t>(d.prop.sharedMemPerMultiprocessor / 2 + 1024,
                                   d.prop.sharedMemPerBlockOptin);
    CK(cudaFuncSetAttribute(throughput<Op, ILP>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            (int)smem));
    const int threads = std::min(1024, d.prop.maxThreadsPerMultiProcessor);
    const long long warp_instrs = (long long)(threads / 32) * tput_iters * kUnroll * ILP;
    for (int r = 0; r < reps; r++) {
        throughput<Op, ILP><<<d.sms, threads, smem>>>(tput_iters, 0u, g_cycles, g_smid, g_sink);
        CK(cudaGetLastError());
        std::vector<long long> c(d.sms);
        std::vector<int> sm(d.sms);
        CK(cudaMemcpy(c.data(), g_cycles, d.sms * sizeof(long long), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(sm.data(), g_smid, d.sms * sizeof(int), cudaMemcpyDeviceToHost));
        std::vector<double> cd(c.begin(), c.end());
        std::sort(sm.begin(), sm.end());
        int distinct = (int)(std::unique(sm.begin(), sm.end()) - sm.begin());
        record("itput,%s,%s,%d,%d,%d,%lld,%.0f,%d", Op::name, instr_of<Op>(cc), r, d.sms,
               distinct, warp_instrs, median(cd), flops_of<Op>(cc));
    }
}

int main(int argc, char **argv)
{
    const int reps = (int)opt_int(argc, argv, "--reps", 5);
    DeviceFacts d = device_facts("inst");
    CK(cudaMalloc(&g_cycles, d.sms * sizeof(long long)));
    CK(cudaMalloc(&g_smid, d.sms * sizeof(int)));
    CK(cudaMalloc(&g_sink, sizeof(uint32_t)));

    // The SM clock while busy: clock64 cycles of a spin over its cudaEvent time.
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    const long long spin_cycles = 20000000;
    for (int r = 0; r < reps + 1; r++) {
        CK(cudaEventRecord(a));
        spin<<<1, 1>>>(spin_cycles, g_cycles);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms = 0.f;
        CK(cudaEventElapsedTime(&ms, a, b));
        long long c = 0;
        CK(cudaMemcpy(&c, g_cycles, sizeof c, cudaMemcpyDeviceToHost));
        if (r > 0) record("clk,%d,%lld,%.6f", r - 1, c, ms); // the first one warms the clock up
    }

    measure<Fp32, 8>(d, reps, 64, 64);
    measure<Fp64, 8>(d, reps, 64, 8);
    measure<Fp16x2, 8>(d, reps, 64, 64);
    measure<IntAdd, 8>(d, reps, 64, 64);
    measure<Imad, 8>(d, reps, 64, 64);
    measure<Sfu, 8>(d, reps, 64, 16);
    measure<Mma, 4>(d, reps, 16, 16);
    return 0;
}
