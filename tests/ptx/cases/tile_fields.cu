// A persistent kernel's tile bookkeeping, written for warpsim's tests: a 1-D grid walks tiles of
// 64 columns with a gridDim.x stride, stops on a mask of high bits (tile & 0x1FFFF000, zero in
// every block of a small grid), joins bit fields with `or` (row and warp above bit 17, column
// above bit 7, lane below), and passes block-dependent indices to functions that are not inlined
// (call arguments and a return value travel through the param space; a float made from the row
// index is passed to a function that only stores it, so it steers nothing). The fast path
// keeps these affine, or lets them vary freely, over a box of blocks instead of emulating block
// by block.
__device__ __noinline__ int clamp_column(int x, int cols) { return x < cols ? x : cols - 1; }

__device__ __noinline__ void copy_one(const float* src, float* dst, int from, int to) { dst[to] = src[from]; }

__device__ __noinline__ void store_scaled(float* dst, int i, float v) { dst[i] = v * 0.5f; }

__global__ void tile_fields(const float* src, float* dst, unsigned tiles, int cols) {
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (unsigned tile = blockIdx.x;; tile += gridDim.x) {
    if (tile & 0x1FFFF000u) break;
    const unsigned row = tile / 64, col = tile % 64;
    const unsigned offset = ((row * 8 + warp) << 17) | (col << 7) | lane;
    const int x = clamp_column((int)(col * 32 + lane), cols);
    if (x < cols) copy_one(src, dst, (int)(offset & 0xFFFFFu), x + (int)row * cols);
    store_scaled(dst, (int)lane, (float)row + 0.5f);
    if (tile + gridDim.x >= tiles) break;
  }
}
