// Control: a STREAM triad, already bound by DRAM bandwidth. Nothing to fix; guided advice
// should report no finding.
// Launch: n = 16777216, grid 65536, block 256.

extern "C" __global__ void stream_triad(float* a, const float* b, const float* c, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = b[i] + s * c[i];
}
