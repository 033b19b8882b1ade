// Load latency per memory space by pointer chasing (seed 001's method, docs/measuring.md): one
// thread follows a chain of dependent loads, node i -> node i+1 at a fixed stride, around a
// footprint; clock64() around the timed loads gives SM cycles per load. The footprint picks the
// level that serves the loads: a small one stays in L1 (ld.global) after a warm pass, one
// below the L2 size stays in L2 (ld.global.cg bypasses L1), one of 4x the L2 comes from DRAM.
//
// Records:  lat,LEVEL,OP,FOOTPRINT_BYTES,STRIDE_BYTES,REP,LOADS,CYCLES
//   LEVEL: shared, constant, l1, l2, dram (the profile's figures) or sweep (footprint curve)
#include <cstdint>

#include "common.cuh"

constexpr int kLoads = 2048;     // timed dependent loads per repetition
constexpr int kWarmMax = 8192;   // in-kernel warm-up loads at most (enough for any L1)
constexpr int kConstWords = 16384; // 64 KiB, the whole constant bank a kernel may use

__constant__ uint32_t c_chain[kConstWords];

// node i at byte offset i*stride holds the address of node (i+1) % n.
__global__ void init_chain(uint64_t *base, long long n, long long stride)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        char *b = (char *)base;
        *(uint64_t *)(b + i * stride) = (uint64_t)(b + ((i + 1) % n) * stride);
    }
}

// Reads every node with many threads, so that footprints below the L2 size start L2-resident.
__global__ void touch(const uint64_t *base, long long n, long long stride, uint64_t *sink)
{
    uint64_t acc = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x)
        acc ^= __ldcg((const unsigned long long *)((const char *)base + i * stride));
    if (acc == 0x5eed) *sink = acc; // keeps the loads
}

// ca: a weak ld.global (LDG.E, cached in L1 by default on sm_70+); cg: ld.global.cg (cached in
// L2 only). A plain C++ dereference of the integer would be a generic load, hence the asm.
template <bool CG>
__device__ __forceinline__ uint64_t ld_next(uint64_t p)
{
    if (CG)
        asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
    else
        asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));
    return p;
}

template <bool CG>
__global__ void chase_global(uint64_t start, int warm, uint64_t *cycles, uint64_t *sink)
{
    uint64_t p = start;
    for (int i = 0; i < warm; i++) p = ld_next<CG>(p);
    long long t0 = clock64();
#pragma unroll 16
    for (int i = 0; i < kLoads; i++) p = ld_next<CG>(p);
    long long t1 = clock64();
    *cycles = (uint64_t)(t1 - t0);
    *sink = p;
}

// Shared: byte offsets; the load is ld.shared [R+imm], one instruction per step.
__global__ void chase_shared(int n, int stride, uint64_t *cycles, uint64_t *sink)
{
    extern __shared__ uint32_t s[];
    for (int i = 0; i < n; i++) *(uint32_t *)((char *)s + i * stride) = ((i + 1) % n) * stride;
    uint32_t p = 0;
    for (int i = 0; i < n; i++) p = *(volatile uint32_t *)((char *)s + p);
    long long t0 = clock64();
#pragma unroll 16
    for (int i = 0; i < kLoads; i++) p = *(volatile uint32_t *)((char *)s + p);
    long long t1 = clock64();
    *cycles = (uint64_t)(t1 - t0);
    *sink = p;
}

// Constant: byte offsets into c_chain; an indexed LDC per step.
__global__ void chase_constant(int warm, uint64_t *cycles, uint64_t *sink)
{
    uint32_t p = 0;
    for (int i = 0; i < warm; i++) p = *(const uint32_t *)((const char *)c_chain + p);
    long long t0 = clock64();
#pragma unroll 16
    for (int i = 0; i < kLoads; i++) p = *(const uint32_t *)((const char *)c_chain + p);
    long long t1 = clock64();
    *cycles = (uint64_t)(t1 - t0);
    *sink = p;
}

static uint64_t *g_cycles, *g_sink;

static uint64_t read_cycles()
{
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    uint64_t c = 0;
    CK(cudaMemcpy(&c, g_cycles, sizeof c, cudaMemcpyDeviceToHost));
    return c;
}

static void global_point(const char *level, bool cg, uint64_t *buf, long long footprint,
                         long long stride, int reps)
{
    long long n = footprint / stride;
    init_chain<<<1024, 256>>>(buf, n, stride);
    for (int r = 0; r < reps; r++) {
        // Start each repetition on fresh nodes: for DRAM footprints these are still cold.
        long long first = ((long long)r * (kLoads + kWarmMax)) % n;
        uint64_t start = (uint64_t)((char *)buf + first * stride);
        int warm = 0;
        if (std::strcmp(level, "dram") != 0) { // DRAM points start cold on purpose
            touch<<<1024, 256>>>(buf, n, stride, g_sink);
            warm = (int)std::min<long long>(n, kWarmMax);
        }
        if (cg)
            chase_global<true><<<1, 1>>>(start, warm, g_cycles, g_sink);
        else
            chase_global<false><<<1, 1>>>(start, warm, g_cycles, g_sink);
        record("lat,%s,%s,%lld,%lld,%d,%d,%llu", level, cg ? "ld.global.cg" : "ld.global",
               footprint, stride, r, kLoads, (unsigned long long)read_cycles());
    }
}

static long long pow2_floor(long long x)
{
    long long p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

int main(int argc, char **argv)
{
    const int reps = (int)opt_int(argc, argv, "--reps", 5);
    const bool quick = opt_int(argc, argv, "--quick", 0) != 0;
    DeviceFacts d = device_facts("mem_latency");
    CK(cudaMalloc(&g_cycles, sizeof(uint64_t)));
    CK(cudaMalloc(&g_sink, sizeof(uint64_t)));

    const long long stride = 128; // one L1/L2 line per load
    const long long l2 = d.l2_bytes > 0 ? d.l2_bytes : (4 << 20);
    long long dram_fp = 1; // the smallest power of two >= 4x the L2
    while (dram_fp < 4 * l2) dram_fp *= 2;
    const long long l2_fp = std::max(pow2_floor(l2 / 4), 64LL << 10);
    uint64_t *buf = nullptr;
    CK(cudaMalloc(&buf, dram_fp));
    record("# footprints: l1 16384, l2 %lld, dram %lld bytes; stride %lld; %d loads per rep",
           l2_fp, dram_fp, stride, kLoads);

    // Shared: 16 KiB of nodes, stride 128 B (one thread: no bank conflicts).
    for (int r = 0; r < reps; r++) {
        chase_shared<<<1, 1, 16384>>>(16384 / 128, 128, g_cycles, g_sink);
        record("lat,shared,ld.shared,16384,128,%d,%d,%llu", r, kLoads,
               (unsigned long long)read_cycles());
    }
    // Constant: 1 KiB at a 64 B stride (the hit latency), then a sweep to 64 KiB.
    for (int fp = 1024; fp <= kConstWords * 4; fp *= 4) {
        std::vector<uint32_t> h(kConstWords, 0);
        int n = fp / 64;
        for (int i = 0; i < n; i++) h[i * 16] = (uint32_t)(((i + 1) % n) * 64);
        CK(cudaMemcpyToSymbol(c_chain, h.data(), h.size() * sizeof(uint32_t)));
        for (int r = 0; r < reps; r++) {
            chase_constant<<<1, 1>>>(std::min(n, kWarmMax), g_cycles, g_sink);
            record("lat,%s,ld.const,%d,64,%d,%d,%llu", fp == 1024 ? "constant" : "sweep", fp, r,
                   kLoads, (unsigned long long)read_cycles());
        }
        if (quick) break;
    }
    global_point("l1", false, buf, 16384, stride, reps);
    global_point("l2", true, buf, l2_fp, stride, reps);
    global_point("dram", true, buf, dram_fp, stride, reps);
    // The footprint curve, both load kinds: 4 KiB .. the DRAM footprint (3 repetitions).
    if (!quick)
        for (long long fp = 4096; fp <= dram_fp; fp *= 2) {
            global_point("sweep", false, buf, fp, stride, 3);
            global_point("sweep", true, buf, fp, stride, 3);
        }
    CK(cudaFree(buf));
    return 0;
}
