// Reading one field of an array of structs struct P { float x, y, z, w, a, b, c, d; }
// (passed as float*, element i's x at in[i * 8]) against the same field stored as its own array.
// Launch: n = 1 << 22, grid 16384, block 256.
// aos_field: a warp's 32 loads are 32 bytes apart, one 32-byte sector each (8x the traffic).
// soa_field: a warp's 32 loads are contiguous, 4 sectors in all.

extern "C" __global__ void aos_field(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * 8] * 2.0f; // CAUSE: stride-8 read of one struct field, uncoalesced
}

extern "C" __global__ void soa_field(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
}
