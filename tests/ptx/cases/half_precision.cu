// half_precision.cu - f16, bf16 and f16x2 values that steer a branch or an address, so that a
// wrong or unknown half-precision value changes the lowered program.
//
// PTX: nvcc 13.0, `nvcc -ptx -arch=sm_XX half_precision.cu -o half_precision.sm_XX.ptx` for
// sm_75 (bf16 in integer code), sm_80 (fma.rn.bf16, bf16 compared as f32 through packing movs)
// and sm_90 (mul.bf16, setp.bf16, cvt.f32.bf16).
//
// Launch: 1 block of 32 threads (lane t = threadIdx.x). Expected, by hand, for every target:
//   half_branch: c = f16(1.5 t) + 3 < 10 for t = 0..4: one store of lanes 0..4, 1 sector.
//   bf16_branch: c = bf16(0.75 t) * 3 > 20 for t = 9..31 (2.25 t, exact up to t = 28 and above
//                20 from t = 9): one store of bytes 36..127, 3 sectors.
//   half2_index: w = {0.5 t + 1, 0.5 t + 1}, i = 2 trunc(0.5 t + 1) = 2, 2, 4, 4, ..., 32:
//                one store to out[i], bytes 8..131, 5 sectors.
// No branch depends on an unknown value.

#include <cuda_fp16.h>
#include <cuda_bf16.h>
// Half-precision values steer a branch: lanes whose f16 sum is below 10 store.
__global__ void half_branch(float* out) {
  __half a = __float2half(1.5f * threadIdx.x);
  __half c = __hadd(a, __float2half(3.0f));
  if (__hlt(c, __float2half(10.0f))) out[threadIdx.x] = __half2float(c);
}
__global__ void bf16_branch(float* out) {
  __nv_bfloat16 a = __float2bfloat16(0.75f * threadIdx.x);
  __nv_bfloat16 c = __hmul(a, __float2bfloat16(3.0f));
  if (__hgt(c, __float2bfloat16(20.0f))) out[threadIdx.x] = __bfloat162float(c);
}
__global__ void half2_index(float* out) {
  __half2 v = __floats2half2_rn(1.0f * threadIdx.x, 2.0f * threadIdx.x);
  __half2 w = __hfma2(v, __floats2half2_rn(0.5f, 0.25f), __floats2half2_rn(1.0f, 1.0f));
  int i = __half2int_rz(__low2half(w)) + __half2int_rz(__high2half(w));
  out[i] = 1.0f;
}
