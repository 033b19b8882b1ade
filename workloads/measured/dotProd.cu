// warpsim's own version of the dataset kernel `dotProd` (docs/validation.md): per-block
// partial dot products of two N-float vectors. Each thread multiplies one pair into a shared
// array of Tile_Width^2 floats, then the block sums it by a tree reduction with __syncthreads
// (halving strides); thread 0 writes the block's sum to partial[blockIdx.x].
// Launch: block Tile_Width^2 threads, grid ceil(N / Tile_Width^2).
#ifndef Tile_Width
#define Tile_Width 16
#endif

#define THREADS (Tile_Width * Tile_Width)

__global__ void dotProd(const float* a, const float* b, float* partial, int N)
{
    __shared__ float cache[THREADS];
    int tid = threadIdx.x;
    int i = blockIdx.x * THREADS + tid;
    cache[tid] = (i < N) ? a[i] * b[i] : 0.0f;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s)
            cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        partial[blockIdx.x] = cache[0];
}
