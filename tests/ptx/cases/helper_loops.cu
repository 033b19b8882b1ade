// Loops that come back to the same state every iteration although something in them changes,
// written for warpsim's tests (docs/ptx.md, "Loops in closed form"):
// 1. a window loop that passes a function that is not inlined a float made from the offset (a
//    bilateral filter's shape; -G builds call helpers so everywhere): the float steers nothing,
//    so the param slot it travels through holds no value the loop must repeat;
// 2. a counted loop around a search whose end lies in memory (an unknown value): the search is
//    left at its N-th test (--unknown-trips N), and the outer loop repeats;
// 3. the opposite of 1: a helper that branches on its float argument, which must stay known (the
//    branch changes what the warp issues from one iteration to the next).
__device__ __noinline__ float weigh(float offset, float sigma) { return __expf(-offset * offset / sigma); }

__device__ __noinline__ void mark_far(float* out, int x, float offset) {
  if (offset > 2.5f) out[x] += 1.0f;
}

__global__ void helper_loops(const float* in, float* out, const int* list, int radius, int rounds) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int d = -radius; d <= radius; ++d) sum += in[x + radius + d] * weigh((float)d, 2.0f);
  for (int r = 0; r < rounds; ++r) {
    int j = 0;
    while (list[j] != 0) ++j;
    sum += (float)j;
  }
  for (int d = 0; d < rounds && d < 8; ++d) mark_far(out, x, (float)d);
  out[x] = sum;
}
