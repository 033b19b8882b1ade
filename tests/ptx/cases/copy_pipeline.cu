// A double-buffered tile loop, written for warpsim's tests: each iteration copies the next tile of
// 128 float4 into shared memory and works on the current one (a register loop of 96 steps). `copy_pipeline_async` copies with
// cp.async (it overlaps the reduction; the wait is at the loop's end), `copy_pipeline_sync` with
// ld.global + st.shared (the warp waits for the load before its store). `in` holds tiles + 1 tiles
// per block, so the copy needs no branch. Regression: cp.async was timed as a blocking load, so
// the two came out the same (review 2026-11-sass-and-memory-seams 4.2).
#include <cuda_pipeline.h>

extern "C" __global__ void copy_pipeline_async(const float4* in, float* out, int tiles) {
  __shared__ float4 buf[2][128];
  const int t = threadIdx.x;
  const float4* mine = in + static_cast<long>(blockIdx.x) * (tiles + 1) * 128;
  float acc = 0;
  __pipeline_memcpy_async(&buf[0][t], &mine[t], 16);
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &mine[(k + 1) * 128 + t], 16);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    const float4 v = buf[k & 1][127 - t];
#pragma unroll 8
    for (int j = 0; j < 96; ++j) acc = fmaf(acc, v.x, v.y) * v.z + v.w;
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = acc;
}

extern "C" __global__ void copy_pipeline_sync(const float4* in, float* out, int tiles) {
  __shared__ float4 buf[2][128];
  const int t = threadIdx.x;
  const float4* mine = in + static_cast<long>(blockIdx.x) * (tiles + 1) * 128;
  float acc = 0;
  buf[0][t] = mine[t];
  for (int k = 0; k < tiles; ++k) {
    buf[(k + 1) & 1][t] = mine[(k + 1) * 128 + t];
    __syncthreads();
    const float4 v = buf[k & 1][127 - t];
#pragma unroll 8
    for (int j = 0; j < 96; ++j) acc = fmaf(acc, v.x, v.y) * v.z + v.w;
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = acc;
}
