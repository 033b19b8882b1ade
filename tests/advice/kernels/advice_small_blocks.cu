// Block size limits occupancy: one kernel, launched with 1-warp blocks and with 256-thread blocks.
// Each thread walks a 32 KiB coefficient table (256 rows of 32 floats, L2-resident) in a chain
// of 256 dependent load + FMA steps, so it is bound by L2 latency and needs many warps per SM.
// With 32-thread blocks the A100's limit of 32 resident blocks per SM caps it at 32 warps (50%);
// with 256-thread blocks 8 blocks = 64 warps fit.
// Problem launch: grid 32768, block 32. Fixed launch: grid 4096, block 256 (same 1M threads).
// Parameters: table 8192 floats, out n floats, n = 1048576.

#define STEPS 256

extern "C" __global__ void small_block_work(const float* table, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x; // CAUSE: launched with 32-thread blocks, the per-SM block limit caps resident warps
    float x = (float)threadIdx.x;
    #pragma unroll 1
    for (int k = 0; k < STEPS; ++k)
        x = fmaf(x, table[k * 32 + (threadIdx.x & 31)], 0.5f);
    if (i < n)
        out[i] = x;
}
