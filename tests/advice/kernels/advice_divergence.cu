// Branch divergence: divergent_halves splits every warp by lane parity, so each warp runs both
// 256-FMA loops one after the other. warp_uniform_halves splits by warp (same work, same
// number of threads on each side), so each warp runs one loop.
// Launch: grid 1024, block 256, n = 262144.

#define CHAIN 256

extern "C" __global__ void divergent_halves(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)threadIdx.x;
    if (threadIdx.x % 2 == 0) { // CAUSE: lanes of every warp take different branches
        #pragma unroll 16
        for (int k = 0; k < CHAIN; ++k)
            x = fmaf(x, 0.999f, 0.5f);
    } else {
        #pragma unroll 16
        for (int k = 0; k < CHAIN; ++k)
            x = fmaf(x, 1.001f, -0.25f);
    }
    if (i < n)
        out[i] = x;
}

extern "C" __global__ void warp_uniform_halves(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = (float)threadIdx.x;
    if ((threadIdx.x / 32) % 2 == 0) {
        #pragma unroll 16
        for (int k = 0; k < CHAIN; ++k)
            x = fmaf(x, 0.999f, 0.5f);
    } else {
        #pragma unroll 16
        for (int k = 0; k < CHAIN; ++k)
            x = fmaf(x, 1.001f, -0.25f);
    }
    if (i < n)
        out[i] = x;
}
