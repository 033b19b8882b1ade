// FP64 on a GPU with a low FP64 rate (GeForce / L4: 2 results per clock per SM). poly_double
// evaluates a degree-32 polynomial in double (Horner, 32 dependent DFMAs per element);
// poly_float the same in float.
// Launch: n = 1048576, grid 4096, block 256, --gpu rtx4090 (or l4).

#define DEGREE 32

extern "C" __global__ void poly_double(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double x = in[i];
        double acc = 1.0;
        #pragma unroll
        for (int d = DEGREE - 1; d >= 0; --d)
            acc = acc * x + 1.0 / (d + 2); // CAUSE: double-precision FMAs, 1/64 rate on GeForce
        out[i] = (float)acc;
    }
}

extern "C" __global__ void poly_float(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float x = in[i];
        float acc = 1.0f;
        #pragma unroll
        for (int d = DEGREE - 1; d >= 0; --d)
            acc = acc * x + 1.0f / (d + 2);
        out[i] = acc;
    }
}
