// warpsim's own version of the dataset kernel `matrix_sum_coalesced` (docs/validation.md):
// C = A + B for N x N row-major floats, one thread per element; threadIdx.x walks the
// columns, so a warp reads and writes consecutive addresses.
// Launch: block (Tile_Width, Tile_Width), grid (ceil(N/T), ceil(N/T)).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void matSum(const float* A, const float* B, float* C, int N)
{
    int row = blockIdx.y * Tile_Width + threadIdx.y;
    int col = blockIdx.x * Tile_Width + threadIdx.x;
    if (row < N && col < N) {
        int i = row * N + col;
        C[i] = A[i] + B[i];
    }
}
