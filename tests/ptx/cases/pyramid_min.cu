// The shape of a dynamic-programming pyramid (as Rodinia's pathfinder and hotspot have it),
// written for warpsim's tests: each block covers blockDim.x - 2 * halo columns plus a halo on
// each side, so its first column is negative in block 0; every step the valid range shrinks.
// Bounds are clamped with min/max on the block's position; a signed shift of the column (negative
// in block 0) picks a pair. Regression: the fast path stopped on such a value with "internal: a
// value varies over no symbol" instead of emulating it as it is.
__global__ void pyramid_min(int steps, const int* wall, const int* src, int* dst, int* pairs, int cols, int start_row,
                            int halo) {
  __shared__ int prev[1024];
  __shared__ int result[1024];
  const int t = threadIdx.x;
  const int span = blockDim.x - 2 * halo;
  const int left = span * blockIdx.x - halo;  // negative in the first block
  const int x = left + t;
  const int valid_lo = left < 0 ? -left : 0;
  const int last = left + (int)blockDim.x - 1;
  const int valid_hi = last > cols - 1 ? (int)blockDim.x - 1 - (last - cols + 1) : (int)blockDim.x - 1;
  const int w = max(t - 1, valid_lo);
  const int e = min(t + 1, valid_hi);
  const bool inside = t >= valid_lo && t <= valid_hi;
  if (x >= 0 && x < cols) prev[t] = src[x];
  __syncthreads();
  bool done = false;
  for (int i = 0; i < steps; ++i) {
    done = false;
    if (t >= i + 1 && t <= blockDim.x - i - 2 && inside) {
      done = true;
      result[t] = min(prev[w], min(prev[t], prev[e])) + wall[cols * (start_row + i) + x];
    }
    __syncthreads();
    if (i == steps - 1) break;
    if (done) prev[t] = result[t];
    __syncthreads();
  }
  if (done) {
    dst[x] = result[t];
    atomicAdd(&pairs[(x >> 1) + halo], 1);  // x >> 1 rounds towards minus infinity for x < 0
  }
}
