// warpsim's own version of the dataset kernel `matMul_gpu_sharedmem_uncoalesced`
// (docs/validation.md): the tiled multiply of matMul_gpu_sharedmem.cu with the thread roles
// swapped: threadIdx.x walks the rows, so consecutive threads of a warp load A, B and store C
// Width elements apart (one sector each). Shared tiles: 2*T*T floats.
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
    int row = blockIdx.x * Tile_Width + tx;
    int col = blockIdx.y * Tile_Width + ty;
    float sum = 0.0f;
    for (int m = 0; m < Width / Tile_Width; ++m) {
        As[tx][ty] = A[row * Width + m * Tile_Width + ty];
        Bs[tx][ty] = B[(m * Tile_Width + tx) * Width + col];
        __syncthreads();
        for (int k = 0; k < Tile_Width; ++k)
            sum += As[tx][k] * Bs[k][ty];
        __syncthreads();
    }
    C[row * Width + col] = sum;
}
