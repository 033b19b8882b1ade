// Tail wave. Every block does the same latency-bound work (512 dependent load + FMA steps over a
// 64 KiB L2-resident table), so a block alone takes nearly as long as in a full SM. On an A100
// (8 blocks of 256 threads per SM, 864 per wave) a grid of 1037 blocks is 1.2 waves: the last
// 0.2 wave takes about as long as a full one while most of the GPU idles.
// tail_strided does the same n * 512 steps cut into 8 * n pieces of 64 steps, dealt round-robin
// over exactly one wave of threads by a grid-stride loop (9 or 10 pieces per thread).
// Problem: tail_blocks, grid 1037, block 256, n = 265472 (= 1037 * 256).
// Fixed:   tail_strided, grid 864, block 256, same n.
// Parameters: table 16384 floats, out n floats.

#define STEPS 512
#define PIECES 8

extern "C" __global__ void tail_blocks(const float* table, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; // CAUSE: one long item per thread, grid of 1.2 waves leaves a tail wave
    float x = (float)i;
    #pragma unroll 1
    for (int k = 0; k < STEPS; ++k)
        x = fmaf(x, table[k * 32 + (threadIdx.x & 31)], 0.5f);
    if (i < n)
        out[i] = x;
}

extern "C" __global__ void tail_strided(const float* table, float* out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int j = t; j < PIECES * n; j += gridDim.x * blockDim.x) {
        float x = (float)j;
        #pragma unroll 1
        for (int k = 0; k < STEPS / PIECES; ++k)
            x = fmaf(x, table[k * 32 + (threadIdx.x & 31)], 0.5f);
        sum += x;
    }
    out[t] = sum;
}
