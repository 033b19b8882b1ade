// warpsim's own version of the dataset kernel `matMul_gpu` (docs/validation.md): naive
// matrix multiply C = A * B of Width x Width row-major floats from global memory, one thread
// per element of C. Coalesced: threadIdx.x walks the columns, so consecutive threads of a warp
// read consecutive B[k][col] and write consecutive C[row][col].
// Launch: block (Tile_Width, Tile_Width), grid (ceil(Width/T), ceil(Width/T)).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void matMul(const float* A, const float* B, float* C, int Width)
{
    int row = blockIdx.y * Tile_Width + threadIdx.y;
    int col = blockIdx.x * Tile_Width + threadIdx.x;
    if (row < Width && col < Width) {
        float sum = 0.0f;
        for (int k = 0; k < Width; ++k)
            sum += A[row * Width + k] * B[k * Width + col];
        C[row * Width + col] = sum;
    }
}
