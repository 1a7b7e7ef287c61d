// thought: one thread per output bin (r, c, ph, pw), each sample's neighbours the pixel below and to the right of it, with pw fastest, so a warp's samples fall in neighbouring pixels of one plane (cached, mostly coalesced __ldg reads); the roi's start, bin size and adaptive grid in fp32 registers as torchvision's kernel computes them, each sample's four taps multiplied in (NaN reaches the bin through a zero weight as torchvision's), fp16/bf16 read and accumulated in fp32, one rounding at the store
// flaw: a sample's high neighbours are always y_low + 1 and x_low + 1: torchvision clamps a sample at or past the last
// row (column) to it, with both neighbours the last one; here such samples mix in the next row (the following plane, or
// past the input) and the next column (the next row's first pixel), wrong wherever a box reaches the bottom or right edge.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <int DT> __device__ __forceinline__ float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return __half2float(__ldg(static_cast<const __half*>(p) + i));
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(__ldg(static_cast<const __nv_bfloat16*>(p) + i));
  else return __ldg(static_cast<const float*>(p) + i);
}
template <int DT> __device__ __forceinline__ void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}

template <int DT>
__device__ __forceinline__ float bilinear(const void* __restrict__ in, int64_t base, int F, float y, float x) {
  if (y < -1.0f || y > (float)F || x < -1.0f || x > (float)F) return 0.0f;
  if (y <= 0.0f) y = 0.0f;
  if (x <= 0.0f) x = 0.0f;
  const int y_low = (int)y, x_low = (int)x, y_high = y_low + 1, x_high = x_low + 1;
  const float ly = y - (float)y_low, lx = x - (float)x_low, hy = 1.0f - ly, hx = 1.0f - lx;
  return hy * hx * ld<DT>(in, base + (int64_t)y_low * F + x_low) + hy * lx * ld<DT>(in, base + (int64_t)y_low * F + x_high) +
         ly * hx * ld<DT>(in, base + (int64_t)y_high * F + x_low) + ly * lx * ld<DT>(in, base + (int64_t)y_high * F + x_high);
}

template <int DT>
__global__ void __launch_bounds__(256) roi_align(const void* __restrict__ in, const int32_t* __restrict__ bidx,
                                                 const float* __restrict__ boxes, void* __restrict__ out, int N, int C, int F,
                                                 int P, float scale, int ratio, int64_t total) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < total; o += (int64_t)gridDim.x * blockDim.x) {
    const int pw = (int)(o % P), ph = (int)((o / P) % P), c = (int)((o / ((int64_t)P * P)) % C);
    const int64_t r = o / ((int64_t)P * P * C);
    const int b = __ldg(bidx + r);
    if (b < 0 || b >= N) {  // an index out of range: no value to give
      st<DT>(out, o, __int_as_float(0x7fc00000));
      continue;
    }
    const float4 box = __ldg(reinterpret_cast<const float4*>(boxes) + r);
    const float x1 = box.x * scale - 0.5f, y1 = box.y * scale - 0.5f;
    const float x2 = box.z * scale - 0.5f, y2 = box.w * scale - 0.5f;
    const float bh = (y2 - y1) / (float)P, bw = (x2 - x1) / (float)P;
    const int gh = ratio > 0 ? ratio : (int)ceilf((y2 - y1) / (float)P);
    const int gw = ratio > 0 ? ratio : (int)ceilf((x2 - x1) / (float)P);
    const float count = gh * gw > 1 ? (float)(gh * gw) : 1.0f;
    const int64_t base = ((int64_t)b * C + c) * F * F;
    float sum = 0.0f;
    for (int iy = 0; iy < gh; ++iy) {
      const float y = y1 + (float)ph * bh + ((float)iy + 0.5f) * bh / (float)gh;
      for (int ix = 0; ix < gw; ++ix) {
        const float x = x1 + (float)pw * bw + ((float)ix + 0.5f) * bw / (float)gw;
        sum += bilinear<DT>(in, base, F, y, x);
      }
    }
    st<DT>(out, o, sum / count);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &in = a->inputs[0], &bi = a->inputs[1], &bx = a->inputs[2], &out = a->outputs[0];
  if (in.ndim != 4 || out.ndim != 4 || bi.dtype != KOPE_I32 || bx.dtype != KOPE_F32) return (int)cudaErrorInvalidValue;
  const int64_t total = out.numel;
  if (total == 0) return 0;
  const int64_t want = (total + 255) / 256;
  roi_align<DT><<<(int)(want < 132 * 32 ? want : 132 * 32), 256, 0, s>>>(
      in.data, (const int32_t*)bi.data, (const float*)bx.data, out.data, (int)in.shape[0], (int)in.shape[1], (int)in.shape[2],
      (int)out.shape[2], (float)kope_attr_or(a, "spatial_scale", 0.25), (int)kope_attr_or(a, "sampling_ratio", 2), total);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].dtype != a->inputs[0].dtype) return (int)cudaErrorInvalidValue;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
