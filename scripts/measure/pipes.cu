// GPU times of the pipe-bound kernels (workloads/pipes/pipe_bound.cu, #included as it is) at the
// launch scripts/validate_pipes.py predicts: 120 x SMs blocks of 256 threads, 1024 iterations
// (docs/validation.md, "Pipe physics"; docs/measuring.md). cudaEvents around one launch, one
// warm-up, then the median of 5. pipe_tensor (mma m16n8k16) needs sm_80: on a CC 7.5 GPU it is
// left out (a comment line says so); pipe_tensor_k8 (m16n8k8) runs everywhere.
//
// Options: --blocks-per-sm=N (default 120), --iters=N (default 1024), --reps=N (default 5).
// Records:  pipes,KERNEL,GRID,BLOCK,ITER,MS      ('#' lines are comments)
#include <cmath>
#include <cstdint>

#include "common.cuh"
#include "../../workloads/pipes/pipe_bound.cu"

typedef void (*PipeKernel)(int, float *);

struct Entry {
    const char *name;
    PipeKernel fn;
    int min_cc;  // major * 10 + minor
};

static const Entry kKernels[] = {
    {"pipe_fp32", pipe_fp32, 0},       {"pipe_fp64", pipe_fp64, 0},
    {"pipe_sfu", pipe_sfu, 0},         {"pipe_int", pipe_int, 0},
    {"pipe_imad", pipe_imad, 0},       {"pipe_fp16x2", pipe_fp16x2, 0},
    {"pipe_tensor", pipe_tensor, 80},  {"pipe_tensor_k8", pipe_tensor_k8, 75},
};

int main(int argc, char **argv)
{
    const int blocks_per_sm = (int)opt_int(argc, argv, "--blocks-per-sm", 120);
    const int iters = (int)opt_int(argc, argv, "--iters", 1024);
    const int reps = (int)opt_int(argc, argv, "--reps", 5);
    const int block = 256;
    if (blocks_per_sm < 1 || iters < 1 || reps < 1) {
        std::fprintf(stderr, "pipes: --blocks-per-sm, --iters and --reps must be >= 1\n");
        return 2;
    }
    DeviceFacts d = device_facts("pipes");
    const int cc = d.prop.major * 10 + d.prop.minor;
    const int grid = blocks_per_sm * d.sms;
    float *out = nullptr;
    CK(cudaMalloc(&out, (size_t)grid * block * sizeof(float)));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    record("# grid = %d x %d SMs, block %d, iters %d, median of %d after 1 warm-up", blocks_per_sm,
           d.sms, block, iters, reps);
    for (const Entry &e : kKernels) {
        if (cc < e.min_cc) {
            record("# %s: left out (needs cc %d.%d)", e.name, e.min_cc / 10, e.min_cc % 10);
            continue;
        }
        int regs = 0, resident = 0;
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, e.fn));
        regs = fa.numRegs;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, e.fn, block, 0));
        std::vector<double> ms;
        for (int r = 0; r <= reps; r++) {
            CK(cudaEventRecord(a));
            e.fn<<<grid, block>>>(iters, out);
            CK(cudaEventRecord(b));
            CK(cudaEventSynchronize(b));
            CK(cudaGetLastError());
            float t = 0.f;
            CK(cudaEventElapsedTime(&t, a, b));
            if (r > 0) ms.push_back(t);  // the first launch warms up
        }
        float probe = 0.f;  // one result, so a kernel that did nothing would show
        CK(cudaMemcpy(&probe, out, sizeof probe, cudaMemcpyDeviceToHost));
        std::sort(ms.begin(), ms.end());
        record("# %s: %d registers, %d blocks per SM resident, min %.4f ms, max %.4f ms, out[0] = %g",
               e.name, regs, resident, ms.front(), ms.back(), probe);
        record("pipes,%s,%d,%d,%d,%.6f", e.name, grid, block, iters, median(ms));
    }
    CK(cudaFree(out));
    return 0;
}
