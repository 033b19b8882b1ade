// nvcc rejects this: `z` is not declared (line 4).
__global__ void broken(float* y) {
  const int i = threadIdx.x;
  y[i] = z;
}
