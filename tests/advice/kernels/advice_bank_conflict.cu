// Tiled matrix transpose through shared memory (n x n floats, n a multiple of 32).
// Launch: grid (n/32, n/32), block (32, 8); each thread moves 4 elements.
// transpose_conflicted reads the 32x32 tile by column: the 32 lanes of a warp hit
// addresses 32 floats apart, all in one bank (32-way conflict).
// transpose_padded pads each row to 33 floats so a column spans all 32 banks.

#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose_conflicted(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // CAUSE: column read of tile[32][32], 32-way bank conflict
}

extern "C" __global__ void transpose_padded(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
