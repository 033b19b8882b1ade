// Shared-memory atomics on one address: count_shared_one_bin has every lane of a block add to
// shared bin 0 (32 lanes of a warp serialise on one word). count_shared_lane_bins gives each
// lane its own bin (lane l adds to bin l: 32 banks, one pass). Both then add the block's bins
// to global memory once. Launch: grid 4096, block 256, n = 1048576.

extern "C" __global__ void count_shared_one_bin(unsigned* bins, int n)
{
    __shared__ unsigned counts[32];
    if (threadIdx.x < 32) counts[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 16; ++k)
        if (i < n) atomicAdd(&counts[0], 1u); // CAUSE: every lane on one shared word
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}

extern "C" __global__ void count_shared_lane_bins(unsigned* bins, int n)
{
    __shared__ unsigned counts[32];
    if (threadIdx.x < 32) counts[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 16; ++k)
        if (i < n) atomicAdd(&counts[threadIdx.x % 32], 1u);
    __syncthreads();
    if (threadIdx.x < 32) atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}
