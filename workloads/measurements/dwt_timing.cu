// Measured kernel times of the paper's two 1D DWT kernels (paper section 5.4):
//   mtx - Listing 6, matrix-based DWT, one launch of N threads;
//   ltt - Listing 8, lattice-structure DWT stage, K/2+1 launches of N/2 threads.
// Launch configuration: the paper's Algorithm 3 (docs/model.md, "Launch heuristic"), with
// N_sm = the device's SM count, N_min = 32, N_max = 1024.
//
// Build: nvcc -O2 -arch=sm_90 -o dwt_timing workloads/measurements/dwt_timing.cu
// Run:   ./dwt_timing > h100-dwt.csv        (CSV on stdout, device information on stderr)
//
// Timing: cudaEvents around the kernel launch(es) of one transform only (for the lattice: around
// the whole sequence of K/2+1 launches); 3 warm-up runs, then 20 timed repetitions; median, min
// and sample standard deviation reported in microseconds. launch_us is the median host-side time
// of an empty kernel launch + cudaDeviceSynchronize, measured once.
//
// Optional second mode (the paper's own method, nvprof-style, section 5.3): built with
//   nvcc -O2 -arch=sm_90 -DDWT_CUPTI -o dwt_timing_cupti workloads/measurements/dwt_timing.cu -lcupti
// and run as `dwt_timing_cupti KERNEL_CSV`, it also records every launch with CUPTI activity
// tracing and writes KERNEL_CSV with GPU-side kernel durations (sum over the launches of one
// transform of kernel end - start) and the host-side cudaLaunchKernel API duration (the paper's
// t_p). Its stdout CSV is perturbed by the tracing and is not meant to be kept.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#ifdef DWT_CUPTI
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <cupti.h>
#endif

#define CK(call)                                                                        \
    do {                                                                                \
        cudaError_t err_ = (call);                                                      \
        if (err_ != cudaSuccess) {                                                      \
            std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_),   \
                         __FILE__, __LINE__, cudaGetErrorString(err_));                 \
            std::exit(1);                                                               \
        }                                                                               \
    } while (0)

// Listing 6. Matrix-based DWT: thread id computes output coefficient id. Listing 6 line 7 reads
// `k2 = (id % 2) * L`; the offset of the second filter row in the flattened 2 x K coefficient
// matrix is K, so that is what is used here. `total` guards threads beyond N that Algorithm 3's
// rounding creates when N_sm' does not divide N (e.g. 132 SMs: 8192 threads -> 132 x 63).
__global__ void mtx(int K, int N, float *idata, float *odata, float *coefs, int total)
{
    int id, k1, k2, i;
    float v = 0.0f;
    id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= total) return;
    k1 = 2 * (id / 2);
    k2 = (id % 2) * K;
    for (i = 0; i < K; i++) {
        v = v + idata[k1] * coefs[k2];
        k1 = (k1 + 1) % N;
        k2++;
    }
    odata[id] = v;
}

// Listing 8. One stage k (0..L-1, L = K/2+1) of the lattice-structure DWT, in place; one thread
// per butterfly, N/2 threads per launch. `total` guards threads beyond N/2.
__global__ void ltt(int k, int L, int N, float *data, float *coefs, int total)
{
    int id = threadIdx.x + blockDim.x * blockIdx.x;
    if (id >= total) return;
    int k0, k1, k2;
    float t, s, a, b;
    k0 = 2 * k;
    k1 = 2 * id + (k % 2);
    k2 = (k1 + 1) % N;
    t = coefs[k0];
    s = coefs[k0 + 1];
    a = data[k1];
    b = data[k2];
    if (k < L - 1) {
        data[k1] = a + t * b;
        data[k2] = s * a + b;
    } else {
        data[k1] = t * a;
        data[k2] = s * b;
    }
}

__global__ void empty_kernel() {}

#ifdef DWT_CUPTI
#define CUPTI_CK(call)                                                                  \
    do {                                                                                \
        CUptiResult r_ = (call);                                                        \
        if (r_ != CUPTI_SUCCESS) {                                                      \
            const char *msg_ = nullptr;                                                 \
            cuptiGetResultString(r_, &msg_);                                            \
            std::fprintf(stderr, "CUPTI error %s at %s:%d\n", msg_ ? msg_ : "?", __FILE__, \
                         __LINE__);                                                     \
            std::exit(1);                                                               \
        }                                                                               \
    } while (0)

struct KernelRec {
    uint32_t corr;
    uint64_t start, end;
    int grid, block;
    std::string name;
};
static std::vector<KernelRec> g_kernels;
static std::unordered_map<uint32_t, double> g_launch_api_us; // correlationId -> API duration

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *size = 8 << 20;
    *buffer = (uint8_t *)std::aligned_alloc(8, *size);
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t *buffer, size_t,
                                      size_t valid)
{
    CUpti_Activity *rec = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
            rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
            auto *k = (CUpti_ActivityKernel10 *)rec;
            g_kernels.push_back(
                {k->correlationId, k->start, k->end, k->gridX, k->blockX, k->name ? k->name : ""});
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
            auto *a = (CUpti_ActivityAPI *)rec;
            if (a->cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000)
                g_launch_api_us[a->correlationId] = (double)(a->end - a->start) / 1000.0;
        }
    }
    std::free(buffer);
}

// One entry per kernel launch, in launch order: which row of the CSV it belongs to.
struct LaunchTag {
    int row;   // -1: empty kernel; otherwise the index of the CSV row
    int rep;   // repetition (warm-ups included)
    int grid, block;
    char kind; // 'e' empty, 'm' mtx, 'l' ltt
};
static std::vector<LaunchTag> g_tags;
#define TAG(row, rep, grid, block, kind) g_tags.push_back({(row), (rep), (int)(grid), (int)(block), (kind)})
#else
#define TAG(row, rep, grid, block, kind) ((void)0)
#endif

struct RowInfo {
    const char *workload;
    int K, N;
    long long blocks, threads;
    int launches;
};

struct Launch {
    long long blocks;
    long long threads;
};

// Algorithm 3 as in docs/model.md: comparisons in integers, rounding up where N_sm' does not
// divide the total.
static Launch algorithm3(long long total, long long n_sm, long long n_min, long long n_max)
{
    long long n_sm_even = n_sm + (n_sm % 2);
    if (total < n_min) return {1, total};
    if (total < n_min * n_sm_even) return {(total + n_min - 1) / n_min, n_min};
    if (total <= n_max * n_sm_even) return {n_sm_even, (total + n_sm_even - 1) / n_sm_even};
    return {(total + n_max - 1) / n_max, n_max};
}

// Host references of the two kernels, to check the device results (reported on stderr).
static void ref_mtx(int K, int N, const float *in, float *out, const float *coefs)
{
    for (int id = 0; id < N; id++) {
        int k1 = 2 * (id / 2), k2 = (id % 2) * K;
        float v = 0.0f;
        for (int i = 0; i < K; i++) {
            v = v + in[k1] * coefs[k2];
            k1 = (k1 + 1) % N;
            k2++;
        }
        out[id] = v;
    }
}

static void ref_ltt(int K, int N, float *data, const float *coefs)
{
    int L = K / 2 + 1;
    for (int k = 0; k < L; k++) {
        float t = coefs[2 * k], s = coefs[2 * k + 1];
        for (int id = 0; id < N / 2; id++) {
            int k1 = 2 * id + (k % 2), k2 = (k1 + 1) % N;
            float a = data[k1], b = data[k2];
            if (k < L - 1) {
                data[k1] = a + t * b;
                data[k2] = s * a + b;
            } else {
                data[k1] = t * a;
                data[k2] = s * b;
            }
        }
    }
}

static double max_rel_err(const std::vector<float> &a, const std::vector<float> &b, int n)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double d = std::fabs((double)a[i] - (double)b[i]);
        double m = std::max(1.0, std::fabs((double)b[i]));
        worst = std::max(worst, d / m);
    }
    return worst;
}

struct Stats {
    double median, min, sd;
};

static Stats stats(std::vector<double> v)
{
    if (v.empty()) return {NAN, NAN, NAN};
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    double med = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    double mean = 0.0;
    for (double x : v) mean += x;
    mean /= n;
    double ss = 0.0;
    for (double x : v) ss += (x - mean) * (x - mean);
    double sd = n > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
    return {med, v[0], sd};
}

int main(int argc, char **argv)
{
#ifdef DWT_CUPTI
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s KERNEL_CSV\n", argv[0]);
        return 2;
    }
    const char *kernel_csv = argv[1];
    CUPTI_CK(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
    CUPTI_CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CUPTI_CK(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME));
#else
    (void)argc;
    (void)argv;
#endif
    std::vector<RowInfo> rows;
    const int kWarmup = 3;
    const int kReps = 20;
    const long long kNmin = 32;
    const long long kNmax = 1024;
    const int kLog2Nmin = 6, kLog2Nmax = 20;
    const int kFilters[] = {8, 10, 12, 14};
    const int kMaxK = 14;
    const long long kNmaxSize = 1LL << kLog2Nmax;

    int dev = 0;
    CK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    int n_sm = 0, clock_khz = 0, mem_clock_khz = 0;
    CK(cudaDeviceGetAttribute(&n_sm, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
    cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, dev);
    int driver = 0, runtime = 0;
    CK(cudaDriverGetVersion(&driver));
    CK(cudaRuntimeGetVersion(&runtime));
    std::fprintf(stderr,
                 "# device: %s, cc %d.%d, SMs %d, max threads/block %d, warp %d, "
                 "sm clock (attr) %d kHz, mem clock (attr) %d kHz, L2 %d bytes, "
                 "driver %d, runtime %d\n",
                 prop.name, prop.major, prop.minor, n_sm, prop.maxThreadsPerBlock,
                 prop.warpSize, clock_khz, mem_clock_khz, prop.l2CacheSize, driver, runtime);

    // Deterministic data: input x[i] = sin(0.01 i) + 0.5 cos(0.003 i); coefficients in (-1, 1).
    std::vector<float> h_in(kNmaxSize);
    for (long long i = 0; i < kNmaxSize; i++)
        h_in[i] = (float)(std::sin(0.01 * (double)i) + 0.5 * std::cos(0.003 * (double)i));
    // mtx uses 2*K coefficients; ltt uses 2*(K/2+1) = K+2 (the paper allocates 2(K+1)).
    std::vector<float> h_coefs(2 * (kMaxK + 1));
    for (size_t i = 0; i < h_coefs.size(); i++)
        h_coefs[i] = (float)(0.9 * std::cos(0.7 * (double)(i + 1)));

    float *d_in = nullptr, *d_out = nullptr, *d_data = nullptr, *d_coefs = nullptr;
    CK(cudaMalloc(&d_in, kNmaxSize * sizeof(float)));
    CK(cudaMalloc(&d_out, kNmaxSize * sizeof(float)));
    CK(cudaMalloc(&d_data, kNmaxSize * sizeof(float)));
    CK(cudaMalloc(&d_coefs, h_coefs.size() * sizeof(float)));
    CK(cudaMemcpy(d_in, h_in.data(), kNmaxSize * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_coefs, h_coefs.data(), h_coefs.size() * sizeof(float),
                  cudaMemcpyHostToDevice));

    cudaEvent_t ev0, ev1;
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));

    // Launch overhead: host-side empty kernel launch + sync, median of 1000 after 100 warm-ups.
    double launch_us = 0.0;
    {
        for (int i = 0; i < 100; i++) {
            empty_kernel<<<1, 1>>>();
            TAG(-1, -1, 1, 1, 'e');
            CK(cudaDeviceSynchronize());
        }
        std::vector<double> t;
        for (int i = 0; i < 1000; i++) {
            auto a = std::chrono::steady_clock::now();
            empty_kernel<<<1, 1>>>();
            TAG(-1, i, 1, 1, 'e');
            cudaDeviceSynchronize();
            auto b = std::chrono::steady_clock::now();
            t.push_back(std::chrono::duration<double, std::micro>(b - a).count());
        }
        CK(cudaGetLastError());
        launch_us = stats(t).median;
    }

    std::printf("gpu,workload,K,N,blocks,threads,launches,time_us,time_us_min,time_us_sd,"
                "samples,launch_us\n");

    double worst_err = 0.0;
    std::vector<float> h_dev(kNmaxSize), h_ref(kNmaxSize);
    for (int K : kFilters) {
        for (int e = kLog2Nmin; e <= kLog2Nmax; e++) {
            const int N = 1 << e;

            // ---- matrix: one launch, N threads ----
            {
                Launch lc = algorithm3(N, n_sm, kNmin, kNmax);
                const int row = (int)rows.size();
                rows.push_back({"dwt_matrix", K, N, lc.blocks, lc.threads, 1});
                (void)row;
                std::vector<double> t;
                for (int r = 0; r < kWarmup + kReps; r++) {
                    CK(cudaEventRecord(ev0));
                    mtx<<<(unsigned)lc.blocks, (unsigned)lc.threads>>>(K, N, d_in, d_out,
                                                                      d_coefs, N);
                    TAG(row, r, lc.blocks, lc.threads, 'm');
                    CK(cudaEventRecord(ev1));
                    CK(cudaEventSynchronize(ev1));
                    CK(cudaGetLastError());
                    float ms = 0.f;
                    CK(cudaEventElapsedTime(&ms, ev0, ev1));
                    if (r >= kWarmup) t.push_back(1000.0 * ms);
                }
                CK(cudaMemcpy(h_dev.data(), d_out, (size_t)N * sizeof(float),
                              cudaMemcpyDeviceToHost));
                ref_mtx(K, N, h_in.data(), h_ref.data(), h_coefs.data());
                worst_err = std::max(worst_err, max_rel_err(h_dev, h_ref, N));
                Stats s = stats(t);
                std::printf("h100,dwt_matrix,%d,%d,%lld,%lld,1,%.3f,%.3f,%.3f,%d,%.3f\n", K, N,
                            lc.blocks, lc.threads, s.median, s.min, s.sd, kReps, launch_us);
            }

            // ---- lattice: K/2+1 launches, N/2 threads each, in place ----
            {
                const int total = N / 2;
                const int L = K / 2 + 1;
                Launch lc = algorithm3(total, n_sm, kNmin, kNmax);
                const int row = (int)rows.size();
                rows.push_back({"dwt_lattice", K, N, lc.blocks, lc.threads, L});
                (void)row;
                std::vector<double> t;
                for (int r = 0; r < kWarmup + kReps; r++) {
                    // Restore the input (outside the timed region) so every repetition
                    // transforms the same data and the values stay bounded.
                    CK(cudaMemcpy(d_data, d_in, (size_t)N * sizeof(float),
                                  cudaMemcpyDeviceToDevice));
                    CK(cudaDeviceSynchronize());
                    CK(cudaEventRecord(ev0));
                    for (int k = 0; k < L; k++) {
                        ltt<<<(unsigned)lc.blocks, (unsigned)lc.threads>>>(k, L, N, d_data,
                                                                          d_coefs, total);
                        TAG(row, r, lc.blocks, lc.threads, 'l');
                    }
                    CK(cudaEventRecord(ev1));
                    CK(cudaEventSynchronize(ev1));
                    CK(cudaGetLastError());
                    float ms = 0.f;
                    CK(cudaEventElapsedTime(&ms, ev0, ev1));
                    if (r >= kWarmup) t.push_back(1000.0 * ms);
                }
                CK(cudaMemcpy(h_dev.data(), d_data, (size_t)N * sizeof(float),
                              cudaMemcpyDeviceToHost));
                std::copy(h_in.begin(), h_in.begin() + N, h_ref.begin());
                ref_ltt(K, N, h_ref.data(), h_coefs.data());
                worst_err = std::max(worst_err, max_rel_err(h_dev, h_ref, N));
                Stats s = stats(t);
                std::printf("h100,dwt_lattice,%d,%d,%lld,%lld,%d,%.3f,%.3f,%.3f,%d,%.3f\n", K, N,
                            lc.blocks, lc.threads, L, s.median, s.min, s.sd, kReps, launch_us);
            }
            std::fflush(stdout);
        }
    }
    std::fprintf(stderr, "# launch_us %.3f, max relative error vs host reference %.3g\n",
                 launch_us, worst_err);

#ifdef DWT_CUPTI
    CK(cudaDeviceSynchronize());
    CUPTI_CK(cuptiActivityFlushAll(1));
    std::sort(g_kernels.begin(), g_kernels.end(),
              [](const KernelRec &a, const KernelRec &b) { return a.corr < b.corr; });
    if (g_kernels.size() != g_tags.size()) {
        std::fprintf(stderr, "CUPTI: %zu kernel records for %zu launches\n", g_kernels.size(),
                     g_tags.size());
        return 1;
    }
    // Per row and repetition: sum of kernel durations, GPU span (first start to last end).
    std::vector<std::vector<double>> ksum(rows.size()), kspan(rows.size()), api(rows.size());
    std::vector<double> empty_k, empty_api;
    size_t i = 0;
    while (i < g_tags.size()) {
        const LaunchTag &tg = g_tags[i];
        const KernelRec &kr = g_kernels[i];
        const char *want = tg.kind == 'e' ? "empty_kernel" : tg.kind == 'm' ? "mtx" : "ltt";
        if (kr.grid != tg.grid || kr.block != tg.block ||
            kr.name.find(want) == std::string::npos) {
            std::fprintf(stderr, "CUPTI: launch %zu mismatch (%s %d x %d vs %s %d x %d)\n", i,
                         kr.name.c_str(), kr.grid, kr.block, want, tg.grid, tg.block);
            return 1;
        }
        auto api_it = g_launch_api_us.find(kr.corr);
        double api_us = api_it == g_launch_api_us.end() ? NAN : api_it->second;
        if (tg.row < 0) {
            if (tg.rep >= 0) {
                empty_k.push_back((double)(kr.end - kr.start) / 1000.0);
                if (api_it != g_launch_api_us.end()) empty_api.push_back(api_us);
            }
            i++;
            continue;
        }
        // Group all launches of this (row, rep).
        size_t j = i;
        double sum = 0.0;
        uint64_t first = kr.start, last = kr.end;
        while (j < g_tags.size() && g_tags[j].row == tg.row && g_tags[j].rep == tg.rep) {
            sum += (double)(g_kernels[j].end - g_kernels[j].start) / 1000.0;
            first = std::min(first, g_kernels[j].start);
            last = std::max(last, g_kernels[j].end);
            auto it = g_launch_api_us.find(g_kernels[j].corr);
            if (tg.rep >= kWarmup && it != g_launch_api_us.end()) api[tg.row].push_back(it->second);
            j++;
        }
        if ((int)(j - i) != rows[tg.row].launches) {
            std::fprintf(stderr, "CUPTI: row %d rep %d has %zu launches\n", tg.row, tg.rep, j - i);
            return 1;
        }
        if (tg.rep >= kWarmup) {
            ksum[tg.row].push_back(sum);
            kspan[tg.row].push_back((double)(last - first) / 1000.0);
        }
        i = j;
    }
    FILE *f = std::fopen(kernel_csv, "w");
    if (!f) {
        std::perror(kernel_csv);
        return 1;
    }
    std::fprintf(f, "gpu,workload,K,N,blocks,threads,launches,kernel_us,kernel_us_min,"
                    "kernel_us_sd,span_us,samples,api_launch_us\n");
    for (size_t r = 0; r < rows.size(); r++) {
        Stats sk = stats(ksum[r]);
        Stats sp = stats(kspan[r]);
        Stats sa = stats(api[r]);
        std::fprintf(f, "h100,%s,%d,%d,%lld,%lld,%d,%.3f,%.3f,%.3f,%.3f,%zu,%.3f\n",
                     rows[r].workload, rows[r].K, rows[r].N, rows[r].blocks, rows[r].threads,
                     rows[r].launches, sk.median, sk.min, sk.sd, sp.median, ksum[r].size(),
                     sa.median);
    }
    std::fclose(f);
    std::fprintf(stderr, "# CUPTI: empty kernel duration median %.3f us, cudaLaunchKernel API "
                         "median %.3f us (empty), %zu kernel records\n",
                 stats(empty_k).median, stats(empty_api).median, g_kernels.size());
#endif
    cudaEventDestroy(ev0);
    cudaEventDestroy(ev1);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_data);
    cudaFree(d_coefs);
    return 0;
}
