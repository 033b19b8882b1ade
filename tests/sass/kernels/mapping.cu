// Kernels of our own for the SASS-to-PTX mapping tests (tests/workload/sass_stream_test.cpp):
// a loop ptxas unrolls by four with a remainder, an if that ptxas converts into predicated
// instructions, and a loop it unrolls fully.
__global__ void dot_rows(int n, const float* a, const float* b, float* out) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k];
  out[row] = acc;
}

__global__ void odd_lanes(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  if (threadIdx.x & 1) x = x * 2.0f + 1.0f;
  out[i] = x;
}

__global__ void fixed_trip(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i];
  for (int k = 0; k < 8; ++k) x = x * x + 0.5f;
  out[i] = x;
}
