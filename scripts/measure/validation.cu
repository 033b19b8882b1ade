// Run times of the committed validation kernels at their suite launches (docs/measuring.md).
// The kernels are the repository's own files, compiled as they are (tiles.cuh):
//   workloads/measured/*.cu   at Tile_Width 8, 16, 32 and the measured data's launches
//                             (scripts/validate_measured_lib.py expected_launch): 2-D kernels
//                             N = 256..8192 step 256, block (T,T), grid ceil(N/T)^2; vectorAdd and
//                             dotProd N = 2^17..2^23, then steps of 2^22 to 2^28, block T^2,
//                             grid ceil(N/T^2);
//   workloads/sgemm/sgemm.cu  n = 2^8..2^13, grid (n/16, n/16), block (16,16) (the .cu's launch,
//                             the README's n = 8192);
//   workloads/vector_ops/vector_ops.cu  n = 2^17..2^28, grid ceil(n/256), block 256.
// Timing: cudaEvents around one launch; one warm-up, then REPS = clamp(0.2 s / t, 3, 20)
// repetitions; median, min and sample sd in us. Sampled outputs are checked against a host
// computation. A time budget (--budget-s, 0 = none) is shared out over the series (kernel x
// tile) in order; a point whose predicted cost overruns its series' share is not run
// (status skipped_budget), nor are the larger ones after it.
//
// Records: val,KERNEL,ENTRY,SOURCE,DEFINES,N,GX,GY,GZ,BX,BY,BZ,REGS,SMEM,STATUS,SAMPLES,
//              MEDIAN_US,MIN_US,SD_US      (times empty unless STATUS is ok or wrong_result)
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

#include "common.cuh"

#define KIT_SRC "../../workloads/measured/matMul_gpu.cu"
#define KIT_NAME matMul_gpu
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/matMul_gpu_uncoalesced.cu"
#define KIT_NAME matMul_gpu_uncoalesced
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/matMul_gpu_sharedmem.cu"
#define KIT_NAME matMul_gpu_sharedmem
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/matMul_gpu_sharedmem_uncoalesced.cu"
#define KIT_NAME matMul_gpu_sharedmem_uncoalesced
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/matrix_sum_coalesced.cu"
#define KIT_NAME matrix_sum_coalesced
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/matrix_sum_normal.cu"
#define KIT_NAME matrix_sum_normal
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/vectorAdd.cu"
#define KIT_NAME vectorAdd
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#define KIT_SRC "../../workloads/measured/dotProd.cu"
#define KIT_NAME dotProd
#include "tiles.cuh"
#undef KIT_SRC
#undef KIT_NAME
#include "../../workloads/sgemm/sgemm.cu"
#include "../../workloads/vector_ops/vector_ops.cu"

// How a series' kernel is called and checked.
enum class Kind { MatMul, MatSum, Vec, Dot, Sgemm, VecOps, Saxpy };

struct Series {
    const char *kernel, *entry, *source;
    int tile; // 0: no Tile_Width define
    Kind kind;
    const void *fn;
};

#define MEASURED(name, entry, kind)                                                            \
    {#name, #entry, "workloads/measured/" #name ".cu", 8, kind, (const void *)name##_T8::entry}, \
    {#name, #entry, "workloads/measured/" #name ".cu", 16, kind, (const void *)name##_T16::entry}, \
    {#name, #entry, "workloads/measured/" #name ".cu", 32, kind, (const void *)name##_T32::entry}

// Cheap series first: what is left of the budget rolls over to the expensive ones at the end.
static const Series kSeries[] = {
    MEASURED(vectorAdd, vectorAdd, Kind::Vec),
    MEASURED(dotProd, dotProd, Kind::Dot),
    {"vector_add", "vector_add", "workloads/vector_ops/vector_ops.cu", 0, Kind::VecOps, (const void *)vector_add},
    {"saxpy_grid_stride", "saxpy_grid_stride", "workloads/vector_ops/vector_ops.cu", 0, Kind::Saxpy, (const void *)saxpy_grid_stride},
    MEASURED(matrix_sum_coalesced, matSum, Kind::MatSum),
    MEASURED(matrix_sum_normal, matSum, Kind::MatSum),
    {"sgemm_tiled", "sgemm_tiled", "workloads/sgemm/sgemm.cu", 0, Kind::Sgemm, (const void *)sgemm_tiled},
    {"sgemm_naive", "sgemm_naive", "workloads/sgemm/sgemm.cu", 0, Kind::Sgemm, (const void *)sgemm_naive},
    MEASURED(matMul_gpu_sharedmem, matMul, Kind::MatMul),
    MEASURED(matMul_gpu, matMul, Kind::MatMul),
    MEASURED(matMul_gpu_sharedmem_uncoalesced, matMul, Kind::MatMul),
    MEASURED(matMul_gpu_uncoalesced, matMul, Kind::MatMul),
};

static std::vector<long long> sizes(Kind k, bool quick)
{
    std::vector<long long> v;
    if (k == Kind::MatMul || k == Kind::MatSum)
        for (long long n = 256; n <= 8192; n += quick ? 2048 : 256) v.push_back(n);
    else if (k == Kind::Sgemm)
        for (long long n = 256; n <= 8192; n *= 2) v.push_back(n);
    else if (k == Kind::VecOps || k == Kind::Saxpy)
        for (long long n = 1LL << 17; n <= (1LL << 28); n *= quick ? 8 : 2) v.push_back(n);
    else {
        for (long long n = 1LL << 17; n <= (1LL << 23); n *= 2) v.push_back(n);
        for (long long n = 3LL << 22; n <= (1LL << 28); n += (quick ? 16LL : 1LL) << 22) v.push_back(n);
    }
    return v;
}

static double work(Kind k, long long n)
{
    return (k == Kind::MatMul || k == Kind::Sgemm) ? (double)n * n * n
           : k == Kind::MatSum                     ? (double)n * n
                                                   : (double)n;
}

// Input values by index, the same on host and device: multiples of 1/1024 in [-0.5, 0.5).
__host__ __device__ inline float val_a(long long i) { return (float)((i * 2654435761LL >> 7) & 1023) / 1024.f - 0.5f; }
__host__ __device__ inline float val_b(long long i) { return (float)((i * 40503LL + 17) & 1023) / 1024.f - 0.5f; }

__global__ void fill(float *a, float *b, float *c, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
         i += (long long)gridDim.x * blockDim.x) {
        a[i] = val_a(i);
        b[i] = val_b(i);
        c[i] = val_b(i);
    }
}

struct Point {
    dim3 grid, block;
};

static Point launch_of(const Series &s, long long n)
{
    long long t = s.tile;
    switch (s.kind) {
    case Kind::MatMul:
    case Kind::MatSum: {
        unsigned g = (unsigned)((n + t - 1) / t);
        return {dim3(g, g), dim3((unsigned)t, (unsigned)t)};
    }
    case Kind::Vec:
    case Kind::Dot: return {dim3((unsigned)((n + t * t - 1) / (t * t))), dim3((unsigned)(t * t))};
    case Kind::Sgemm: return {dim3((unsigned)(n / 16), (unsigned)(n / 16)), dim3(16, 16)};
    default: return {dim3((unsigned)((n + 255) / 256)), dim3(256)};
    }
}

// Checks a few outputs against the host; returns false on a mismatch.
static bool check(const Series &s, long long n, const float *d_c, int saxpy_runs)
{
    const int kSamples = 16;
    for (int j = 0; j < kSamples; j++) {
        long long pick = (j * 7919LL * 7919LL + j) % (s.kind == Kind::MatMul || s.kind == Kind::MatSum || s.kind == Kind::Sgemm ? n * n : n);
        double ref = 0, scale = 1e-6;
        long long at = pick;
        if (s.kind == Kind::MatMul || s.kind == Kind::Sgemm) {
            long long r = pick / n, c = pick % n;
            for (long long k = 0; k < n; k++) {
                double p = (double)val_a(r * n + k) * val_b(k * n + c);
                ref += p;
                scale += std::fabs(p);
            }
        } else if (s.kind == Kind::MatSum || s.kind == Kind::Vec || s.kind == Kind::VecOps) {
            ref = (double)val_a(pick) + val_b(pick);
            scale += std::fabs(ref);
        } else if (s.kind == Kind::Saxpy) {
            ref = val_b(pick) + 0.5 * saxpy_runs * val_a(pick);
            scale += std::fabs(ref) + 0.5 * saxpy_runs;
        } else { // dotProd: partial sum of block b
            long long t2 = (long long)s.tile * s.tile, blocks = (n + t2 - 1) / t2, b = pick % blocks;
            for (long long i = b * t2; i < std::min(n, (b + 1) * t2); i++) {
                double p = (double)val_a(i) * val_b(i);
                ref += p;
                scale += std::fabs(p);
            }
            at = b;
        }
        float got = 0.f;
        CK(cudaMemcpy(&got, d_c + at, sizeof got, cudaMemcpyDeviceToHost));
        if (!(std::fabs(got - ref) <= 1e-4 * scale + 1e-5)) {
            std::fprintf(stderr, "# %s T=%d N=%lld: element %lld is %g, host %g\n", s.kernel, s.tile,
                         n, at, got, ref);
            return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    const double budget = (double)opt_int(argc, argv, "--budget-s", 150);
    const bool quick = opt_int(argc, argv, "--quick", 0) != 0;
    device_facts("validation");
    const long long max_elems = 1LL << 28; // >= 8192^2
    float *a, *b, *c;
    CK(cudaMalloc(&a, max_elems * sizeof(float)));
    CK(cudaMalloc(&b, max_elems * sizeof(float)));
    CK(cudaMalloc(&c, max_elems * sizeof(float)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    auto wall = std::chrono::steady_clock::now();
    auto elapsed = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    };

    const int nseries = (int)(sizeof kSeries / sizeof kSeries[0]);
    for (int si = 0; si < nseries; si++) {
        const Series &s = kSeries[si];
        const double series_start = elapsed();
        const double share = budget > 0 ? (budget - series_start) / (nseries - si) : 1e30;
        cudaFuncAttributes attr;
        CK(cudaFuncGetAttributes(&attr, s.fn));
        char defines[32] = "";
        if (s.tile) std::snprintf(defines, sizeof defines, "Tile_Width=%d", s.tile);
        fill<<<1024, 256>>>(a, b, c, max_elems);
        CK(cudaDeviceSynchronize());
        double last_t = 0, last_w = 0; // seconds of one launch at work last_w
        bool out_of_budget = false;
        int saxpy_runs = 0;
        for (long long n : sizes(s.kind, quick)) {
            Point p = launch_of(s, n);
            int n32 = (int)n;
            float alpha = 0.5f;
            void *args4[] = {&a, &b, &c, &n32};
            void *args_sgemm[] = {&n32, &a, &b, &c};
            void *args_saxpy[] = {&n32, &alpha, &a, &c};
            void **args = s.kind == Kind::Sgemm ? args_sgemm : s.kind == Kind::Saxpy ? args_saxpy : args4;
            if (last_w > 0 && !out_of_budget) {
                double t = last_t * work(s.kind, n) / last_w;
                double cost = t * (1 + std::min(20.0, std::max(3.0, 0.2 / t)));
                if (elapsed() - series_start + cost > share) out_of_budget = true;
            }
            const char *status = "skipped_budget";
            std::vector<double> us;
            if (!out_of_budget) {
                if (s.kind == Kind::Saxpy) { // y starts as val_b for the check
                    fill<<<1024, 256>>>(a, b, c, n);
                    saxpy_runs = 0;
                }
                int reps = 1;
                for (int r = 0; r <= reps; r++) {
                    CK(cudaEventRecord(e0));
                    CK(cudaLaunchKernel(s.fn, p.grid, p.block, args, 0, 0));
                    CK(cudaEventRecord(e1));
                    CK(cudaEventSynchronize(e1));
                    CK(cudaGetLastError());
                    float ms = 0.f;
                    CK(cudaEventElapsedTime(&ms, e0, e1));
                    saxpy_runs++;
                    if (r == 0) {
                        last_t = ms / 1000.0;
                        last_w = work(s.kind, n);
                        reps = (int)std::min(20.0, std::max(3.0, 0.2 / std::max(last_t, 1e-9)));
                    } else {
                        us.push_back(1000.0 * ms);
                    }
                }
                status = check(s, n, c, saxpy_runs) ? "ok" : "wrong_result";
            }
            std::string times;
            if (!us.empty()) {
                double mean = 0, ss = 0;
                for (double x : us) mean += x;
                mean /= us.size();
                for (double x : us) ss += (x - mean) * (x - mean);
                char buf[96];
                std::snprintf(buf, sizeof buf, "%.3f,%.3f,%.3f", median(us),
                              *std::min_element(us.begin(), us.end()),
                              us.size() > 1 ? std::sqrt(ss / (us.size() - 1)) : 0.0);
                times = buf;
            } else {
                times = ",,";
            }
            record("val,%s,%s,%s,%s,%lld,%u,%u,%u,%u,%u,%u,%d,%zu,%s,%zu,%s", s.kernel, s.entry,
                   s.source, defines, n, p.grid.x, p.grid.y, p.grid.z, p.block.x, p.block.y,
                   p.block.z, attr.numRegs, attr.sharedSizeBytes, status, us.size(),
                   times.c_str());
        }
    }
    std::fprintf(stderr, "# validation: %.1f s\n", elapsed());
    return 0;
}
