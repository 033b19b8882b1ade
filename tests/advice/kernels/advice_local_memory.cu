// Local memory. local_array keeps a 64-float per-thread buffer and updates it at an index that
// rotates with threadIdx.x, so the compiler cannot give the entries registers: every step is a
// ld.local + st.local. register_array does the same arithmetic (each of the 64 entries gets
// 4 FMAs, in a different but equivalent order since entries are independent) with indices
// known at compile time, so the buffer lives in registers.
// Launch: grid 1024, block 256, n = 262144.

#define LEN 64
#define STEPS 256

extern "C" __global__ void local_array(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float buf[LEN];
    #pragma unroll
    for (int j = 0; j < LEN; ++j)
        buf[j] = (float)(threadIdx.x + j);
    #pragma unroll 4
    for (int k = 0; k < STEPS; ++k) {
        int idx = (threadIdx.x * 7 + k) & (LEN - 1);
        buf[idx] = fmaf(buf[idx], 0.999f, 0.5f); // CAUSE: dynamic index puts buf in local memory
    }
    float sum = 0.0f;
    #pragma unroll
    for (int j = 0; j < LEN; ++j)
        sum += buf[j];
    if (i < n)
        out[i] = sum;
}

extern "C" __global__ void register_array(float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float buf[LEN];
    #pragma unroll
    for (int j = 0; j < LEN; ++j)
        buf[j] = (float)(threadIdx.x + j);
    #pragma unroll 1
    for (int r = 0; r < STEPS / LEN; ++r) {
        #pragma unroll
        for (int j = 0; j < LEN; ++j)
            buf[j] = fmaf(buf[j], 0.999f, 0.5f);
    }
    float sum = 0.0f;
    #pragma unroll
    for (int j = 0; j < LEN; ++j)
        sum += buf[j];
    if (i < n)
        out[i] = sum;
}
