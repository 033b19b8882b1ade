// warpsim's own version of the dataset kernel `matMul_gpu_uncoalesced` (docs/validation.md):
// the naive matrix multiply of matMul_gpu.cu with the thread roles swapped: threadIdx.x walks
// the rows, so consecutive threads of a warp read A[row][k] and write C[row][col] Width
// elements apart (one sector each), while B[k][col] is the same address for the whole warp.
// Launch: block (Tile_Width, Tile_Width), grid (ceil(Width/T), ceil(Width/T)).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void matMul(const float* A, const float* B, float* C, int Width)
{
    int row = blockIdx.x * Tile_Width + threadIdx.x;
    int col = blockIdx.y * Tile_Width + threadIdx.y;
    if (row < Width && col < Width) {
        float sum = 0.0f;
        for (int k = 0; k < Width; ++k)
            sum += A[row * Width + k] * B[k * Width + col];
        C[row * Width + col] = sum;
    }
}
