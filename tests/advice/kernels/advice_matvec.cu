// Uncoalesced with cache reuse: y = A x with one thread per row. matvec_rows reads A row-major,
// so the 32 lanes of a warp are n floats apart (32 sectors a request); each sector is then
// re-read from the cache for the next seven columns, so DRAM moves only what it must.
// matvec_columns reads A stored column-major: neighbouring lanes, neighbouring floats.
// Launch: grid 256, block 256, n = 65536 (every row a thread).

extern "C" __global__ void matvec_rows(const float* a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.f;
    for (int j = 0; j < n; ++j)
        s += a[(size_t)i * n + j] * x[j]; // CAUSE: lanes n floats apart
    y[i] = s;
}

extern "C" __global__ void matvec_columns(const float* a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.f;
    for (int j = 0; j < n; ++j)
        s += a[(size_t)j * n + i] * x[j];
    y[i] = s;
}
