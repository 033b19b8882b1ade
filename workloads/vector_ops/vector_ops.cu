// Element-wise vector kernels: vector_add with one element per thread and a bound check
// (grid ceil(n/256) x 256), and a grid-stride SAXPY y = a*x + y (any grid).
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void saxpy_grid_stride(int n, float alpha, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = alpha * x[i] + y[i];
  }
}
