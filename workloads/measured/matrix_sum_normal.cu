// warpsim's own version of the dataset kernel `matrix_sum_normal` (docs/validation.md):
// C = A + B for N x N row-major floats, one thread per element, column-strided: threadIdx.x
// walks the rows, so consecutive threads of a warp touch addresses N elements apart.
// Launch: block (Tile_Width, Tile_Width), grid (ceil(N/T), ceil(N/T)).
#ifndef Tile_Width
#define Tile_Width 16
#endif

__global__ void matSum(const float* A, const float* B, float* C, int N)
{
    int row = blockIdx.x * Tile_Width + threadIdx.x;
    int col = blockIdx.y * Tile_Width + threadIdx.y;
    if (row < N && col < N) {
        int i = row * N + col;
        C[i] = A[i] + B[i];
    }
}
