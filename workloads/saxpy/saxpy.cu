// SAXPY, y = a*x + y, one thread per element: the smallest kernel with a scalar that only
// arithmetic reads (a) next to one that bounds the work (n). docs/ptx.md binds its parameters.
__global__ void saxpy(int n, float a, const float* x, float* y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
