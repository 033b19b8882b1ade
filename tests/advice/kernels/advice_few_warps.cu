// Too few warps to hide latency. chain_few runs 512 threads (grid 8, block 64: 16 warps on a
// GPU with thousands of warp slots); each walks 64 elements with a grid-stride loop, one load at
// a time (the FMA needs the loaded value before the next iteration issues), so every iteration
// waits a full DRAM latency. chain_many does the same loads and FMAs with one element per thread
// over 64x the threads.
// Problem: chain_few, grid 8, block 64. Fixed: chain_many, grid 512, block 64. n = 32768.

extern "C" __global__ void chain_few(const float* in, float* out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 0.0f;
    #pragma unroll 1
    for (int k = t; k < n; k += gridDim.x * blockDim.x) // CAUSE: 16 warps in all, each waits on 64 loads in turn
        x = fmaf(x, 0.5f, in[k]);
    out[t] = x;
}

extern "C" __global__ void chain_many(const float* in, float* out, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        out[k] = fmaf(0.0f, 0.5f, in[k]);
}
