// A header-only templated kernel: validate_public.py includes it from a translation unit of its
// own with the recipe's explicit instantiation.
template <typename T>
__global__ void scale(T *x, T s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * s;
}
