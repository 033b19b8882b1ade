// warpsim's own version of the dataset kernel `matMul_gpu_sharedmem` (docs/validation.md):
// tiled matrix multiply C = A * B of Width x Width row-major floats. Each block stages a
// Tile_Width x Tile_Width tile of A and of B in shared memory (2*T*T floats), synchronises,
// accumulates, and moves to the next tile. Coalesced: threadIdx.x walks the columns.
// Width must be a multiple of Tile_Width (the dataset's sizes are).
// Launch: block (Tile_Width, Tile_Width), grid (Width/T, Width/T).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void matMul(const float* A, const float* B, float* C, int Width)
{
    __shared__ float As[Tile_Width][Tile_Width];
    __shared__ float Bs[Tile_Width][Tile_Width];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * Tile_Width + ty;
    int col = blockIdx.x * Tile_Width + tx;
    float sum = 0.0f;
    for (int m = 0; m < Width / Tile_Width; ++m) {
        As[ty][tx] = A[row * Width + m * Tile_Width + tx];
        Bs[ty][tx] = B[(m * Tile_Width + ty) * Width + col];
        __syncthreads();
        for (int k = 0; k < Tile_Width; ++k)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * Width + col] = sum;
}
