// Atomic contention. count_one_bin: every thread of the grid adds 1 to bins[0], so all the
// updates queue on one address. count_spread: the same number of updates over 4096 bins.
// Launch: grid 4096, block 256, n = 1048576 (bins holds 4096 counters).

extern "C" __global__ void count_one_bin(unsigned* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[0], 1u); // CAUSE: every thread updates the same address
}

extern "C" __global__ void count_spread(unsigned* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[i % 4096], 1u);
}
