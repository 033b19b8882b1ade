// Streaming bandwidth per level (docs/measuring.md): every SM full of 256-thread blocks moving
// float4s, timed with cudaEvents. DRAM: read, write and copy over arrays of >= 8x the L2 (one
// pass per launch, so nothing is reused). L2: repeated passes over an array of a quarter of the
// L2, loaded with ld.global.cg (bypassing L1). L1: each block re-reads its own 16 KiB with plain
// loads. Shared: each block re-reads / re-writes 16 KiB of shared memory. Loads and stores are
// volatile asm so the compiler can neither hoist them out of the pass loop nor drop them.
//
// Records:  bw,LEVEL,OP,BYTES,REP,MS     (BYTES moved per launch, reads + writes; MS event time)
#include <cstdint>

#include "common.cuh"

constexpr int kThreads = 256;
constexpr int kTileF4 = 1024; // 16 KiB per block for the L1 and shared tests

__device__ __forceinline__ float4 ld_cg(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ float4 ld_ca(const float4 *p)
{
    float4 v;
    asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ float4 ld_sh(const float4 *p)
{
    float4 v;
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(a));
    return v;
}
__device__ __forceinline__ void st_sh(float4 *p, float4 v)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("st.shared.v4.f32 [%0], {%1,%2,%3,%4};" ::"r"(a), "f"(v.x), "f"(v.y), "f"(v.z),
                 "f"(v.w)
                 : "memory");
}

__device__ __forceinline__ void keep(float s, float *sink)
{
    if (s == 1234.5f) *sink = s; // never true for the data used; keeps the loads alive
}

// op: 0 read, 1 write, 2 copy; passes > 1 re-reads an L2-resident array with ld.global.cg.
__global__ void stream(const float4 *src, float4 *dst, long long n, int op, int passes,
                       float *sink)
{
    float s = 0.f;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++)
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step) {
            if (op == 0) {
                float4 v = ld_cg(src + i);
                s += v.x + v.y + v.z + v.w;
            } else if (op == 1) {
                dst[i] = make_float4(1.f, 2.f, 3.f, 4.f);
            } else {
                dst[i] = ld_cg(src + i);
            }
        }
    keep(s, sink);
}

__global__ void l1_read(const float4 *src, int passes, float *sink)
{
    const float4 *tile = src + (long long)blockIdx.x * kTileF4;
    float s = 0.f;
    for (int p = 0; p < passes; p++)
        for (int i = threadIdx.x; i < kTileF4; i += blockDim.x) {
            float4 v = ld_ca(tile + i);
            s += v.x + v.y + v.z + v.w;
        }
    keep(s, sink);
}

__global__ void shared_stream(int op, int passes, float *sink)
{
    __shared__ float4 tile[kTileF4];
    for (int i = threadIdx.x; i < kTileF4; i += blockDim.x) tile[i] = make_float4(i, 1.f, 2.f, 3.f);
    __syncthreads();
    float s = 0.f;
    for (int p = 0; p < passes; p++)
        for (int i = threadIdx.x; i < kTileF4; i += blockDim.x) {
            if (op == 0) {
                float4 v = ld_sh(tile + i);
                s += v.x + v.y + v.z + v.w;
            } else {
                st_sh(tile + i, make_float4(s, p, i, 0.f));
            }
        }
    keep(s, sink);
}

struct Timer {
    cudaEvent_t a, b;
    Timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
    void start() { CK(cudaEventRecord(a)); }
    double stop_ms()
    {
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaGetLastError());
        float ms = 0.f;
        CK(cudaEventElapsedTime(&ms, a, b));
        return ms;
    }
};

int main(int argc, char **argv)
{
    const int reps = (int)opt_int(argc, argv, "--reps", 10);
    const int warm = 2;
    DeviceFacts d = device_facts("mem_bandwidth");
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream, kThreads, 0));
    const int blocks = d.sms * std::max(per_sm, 1);

    long long l2 = d.l2_bytes > 0 ? d.l2_bytes : (4 << 20);
    long long dram_bytes = 64LL << 20;
    while (dram_bytes < 8 * l2) dram_bytes *= 2;
    dram_bytes = std::min<long long>(dram_bytes, (long long)(d.prop.totalGlobalMem / 4));
    long long l2_bytes = 64 << 10;
    while (l2_bytes * 2 <= l2 / 4) l2_bytes *= 2;
    const int l2_passes = (int)std::max<long long>(1, (512LL << 20) / l2_bytes);
    const int tile_passes = 256;

    float4 *a = nullptr, *b = nullptr;
    float *sink = nullptr;
    CK(cudaMalloc(&a, dram_bytes));
    CK(cudaMalloc(&b, dram_bytes));
    CK(cudaMalloc(&sink, sizeof(float)));
    CK(cudaMemset(a, 0, dram_bytes));
    CK(cudaMemset(b, 0, dram_bytes));
    record("# grid %d x %d threads; dram array %lld bytes; l2 array %lld bytes x %d passes; "
           "l1/shared tile 16384 bytes x %d passes",
           blocks, kThreads, dram_bytes, l2_bytes, l2_passes, tile_passes);

    Timer t;
    auto run = [&](const char *level, const char *op, double bytes, auto launch) {
        for (int r = 0; r < warm + reps; r++) {
            t.start();
            launch();
            double ms = t.stop_ms();
            if (r >= warm) record("bw,%s,%s,%.0f,%d,%.6f", level, op, bytes, r - warm, ms);
        }
    };
    const long long n = dram_bytes / 16;
    const char *ops[] = {"read", "write", "copy"};
    for (int op = 0; op < 3; op++)
        run("dram", ops[op], (op == 2 ? 2.0 : 1.0) * dram_bytes,
            [&] { stream<<<blocks, kThreads>>>(a, b, n, op, 1, sink); });
    run("l2", "read", (double)l2_bytes * l2_passes,
        [&] { stream<<<blocks, kThreads>>>(a, b, l2_bytes / 16, 0, l2_passes, sink); });
    const int tiles = (int)std::min<long long>(blocks, dram_bytes / (16 * kTileF4));
    run("l1", "read", 16.0 * kTileF4 * tiles * tile_passes,
        [&] { l1_read<<<tiles, kThreads>>>(a, tile_passes, sink); });
    run("shared", "read", 16.0 * kTileF4 * blocks * tile_passes,
        [&] { shared_stream<<<blocks, kThreads>>>(0, tile_passes, sink); });
    run("shared", "write", 16.0 * kTileF4 * blocks * tile_passes,
        [&] { shared_stream<<<blocks, kThreads>>>(1, tile_passes, sink); });
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 0;
}
