// warpsim's own version of the dataset kernel `vectorAdd` (docs/validation.md): C = A + B for
// N floats, one thread per element with a bounds check.
// Launch: block Tile_Width^2 threads, grid ceil(N / Tile_Width^2).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void vectorAdd(const float* A, const float* B, float* C, int N)
{
    int i = blockIdx.x * (Tile_Width * Tile_Width) + threadIdx.x;
    if (i < N)
        C[i] = A[i] + B[i];
}
