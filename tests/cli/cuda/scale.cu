// y = FACTOR * x over n elements: the CUDA source that tests/cli/cuda_cli_test.cpp compiles
// (simulate, lower, occupancy, suites and point lists on a .cu; --nvcc-flags -DFACTOR=...).
#ifndef FACTOR
#define FACTOR 2.0f
#endif

__global__ void scale(int n, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = FACTOR * x[i];
}
