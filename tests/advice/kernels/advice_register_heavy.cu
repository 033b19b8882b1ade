// Register-limited occupancy. Each thread loads ACC = 128 values it needs only at the end and
// keeps them in registers while it streams STEPS = 256 more values one load at a time (one load
// in flight per warp, so the loop is bound by DRAM latency and only more warps per SM hide it).
// ptxas gives register_heavy 168 registers: 1 block of 256 threads per SM (8 warps).
// register_capped is the same code under __launch_bounds__(256, 2): 128 registers (a few
// values spill to local memory, loaded once at the end), 2 blocks per SM.
// Parameters: in holds (ACC + STEPS) * n floats, out n floats; n = grid * block.
// Launch: grid 1024, block 256, n = 262144.

#define ACC 128
#define STEPS 256

extern "C" __global__ void register_heavy(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float c[ACC]; // CAUSE: 128 values live across the loop, 168 registers per thread, 1 block per SM
    #pragma unroll
    for (int a = 0; a < ACC; ++a)
        c[a] = in[a * n + i];
    float x = 0.0f;
    #pragma unroll 1
    for (int k = 0; k < STEPS; ++k)
        x = fmaf(x, 1.0001f, in[(ACC + k) * n + i]);
    #pragma unroll
    for (int a = 0; a < ACC; ++a)
        x = fmaf(x, c[a], 1.0f);
    out[i] = x;
}

extern "C" __global__ void __launch_bounds__(256, 2) register_capped(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float c[ACC];
    #pragma unroll
    for (int a = 0; a < ACC; ++a)
        c[a] = in[a * n + i];
    float x = 0.0f;
    #pragma unroll 1
    for (int k = 0; k < STEPS; ++k)
        x = fmaf(x, 1.0001f, in[(ACC + k) * n + i]);
    #pragma unroll
    for (int a = 0; a < ACC; ++a)
        x = fmaf(x, c[a], 1.0f);
    out[i] = x;
}
