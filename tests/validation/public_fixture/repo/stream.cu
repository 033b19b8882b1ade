// A synthetic "public repository" for tests/validation/validate_public_test.py: the test commits
// this folder into a scratch git repository and validate_public.py builds it from there.
__global__ void copy_kernel(const float *a, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}

__global__ void fma_kernel(const float *a, float *c, int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  for (int r = 0; r < reps; ++r) x = x * 1.0001f + 0.5f;
  c[i] = x;
}
