// Loops that come back to the same state every iteration although something in them changes,
// written for warpsim's tests (docs/ptx.md, "Loops in closed form"):
// 1. a window loop that passes a function that is not inlined a float made from the offset (a
//    bilateral filter's shape; -G builds call helpers so everywhere): the float steers nothing,
//    so the param slot it travels through holds no value the loop must repeat;
// 2. a counted loop around a search whose end lies in memory (an unknown value): the search is
//    left at its N-th test (--unknown-trips N), and the outer loop repeats.
__device__ __noinline__ float weigh(float offset, float sigma) { return __expf(-offset * offset / sigma); }

__global__ void helper_loops(const float* in, float* out, const int* list, int radius, int rounds) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int d = -radius; d <= radius; ++d) sum += in[x + radius + d] * weigh((float)d, 2.0f);
  for (int r = 0; r < rounds; ++r) {
    int j = 0;
    while (list[j] != 0) ++j;
    sum += (float)j;
  }
  out[x] = sum;
}
