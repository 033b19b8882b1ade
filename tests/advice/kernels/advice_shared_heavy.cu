// Shared-memory-limited occupancy. shared_heavy declares 48 KiB of static shared memory but
// uses only its first 2 * blockDim.x floats, so 3 blocks of 128 threads fit on an A100 SM
// (12 warps) and too few loads are in flight to cover DRAM latency.
// shared_light declares the 512 floats (2 KiB) it needs.
// Launch: grid 4096, block 128, n = 524288 (= grid * block).

extern "C" __global__ void shared_heavy(const float* in, float* out, int n)
{
    __shared__ float buf[12288]; // CAUSE: 48 KiB static shared per block, 3 blocks per SM
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    buf[t] = v;
    buf[t + blockDim.x] = v * v;
    __syncthreads();
    int u = (t + 1) % blockDim.x;
    out[i] = fmaf(buf[u], 0.5f, buf[u + blockDim.x]);
}

extern "C" __global__ void shared_light(const float* in, float* out, int n)
{
    __shared__ float buf[512];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    buf[t] = v;
    buf[t + blockDim.x] = v * v;
    __syncthreads();
    int u = (t + 1) % blockDim.x;
    out[i] = fmaf(buf[u], 0.5f, buf[u + blockDim.x]);
}
