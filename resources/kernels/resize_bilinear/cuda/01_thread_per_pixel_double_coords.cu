// thought: one thread per output pixel, consecutive threads along a row (coalesced stores, neighbouring reads): source row and column with their weights in double (exact for the special cases' ratios, as the golden), four typed loads and three lerps in fp32; all four taps are read even at weight 0, so NaN and inf reach their outputs as upsample_bilinear2d's
#include "kope_cuda.h"
#include <math.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element access by storage type, fixed at compile time: fp32, fp16, bf16 (stores round to nearest even).
template <int DT> __device__ __forceinline__ float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return __half2float(static_cast<const __half*>(p)[i]);
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  else return static_cast<const float*>(p)[i];
}
template <int DT> __device__ __forceinline__ void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}
#define KOPE_BY_DTYPE(dt, F, ...)                     \
  switch (dt) {                                       \
    case KOPE_F16: return F<KOPE_F16>(__VA_ARGS__);   \
    case KOPE_BF16: return F<KOPE_BF16>(__VA_ARGS__); \
    case KOPE_F32: return F<KOPE_F32>(__VA_ARGS__);   \
    default: return (int)cudaErrorInvalidValue;       \
  }

__device__ __forceinline__ double source(int64_t dst, int64_t in, int64_t out, bool align) {
  if (align) return out > 1 ? (double)dst * (double)(in - 1) / (double)(out - 1) : 0.0;
  const double s = ((double)dst + 0.5) * (double)in / (double)out - 0.5;
  return s < 0 ? 0 : s;
}

template <int DT>
__global__ void resize(const void* __restrict__ x, void* __restrict__ y, int64_t NC, int64_t H, int64_t W, int64_t HO,
                       int64_t WO, bool align) {
  const int64_t total = NC * HO * WO;
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < total; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t ow = o % WO, oh = (o / WO) % HO, p = o / (WO * HO);
    const double sh = source(oh, H, HO, align), sw = source(ow, W, WO, align);
    const int64_t r0 = (int64_t)floor(sh), c0 = (int64_t)floor(sw);
    const int64_t r1 = r0 + 1 < H ? r0 + 1 : H - 1, c1 = c0 + 1 < W ? c0 + 1 : W - 1;
    const float lh = (float)(sh - (double)r0), lw = (float)(sw - (double)c0);
    const int64_t top = p * H * W + r0 * W, bot = p * H * W + r1 * W;
    const float t = ld<DT>(x, top + c0) * (1 - lw) + ld<DT>(x, top + c1) * lw;
    const float b = ld<DT>(x, bot + c0) * (1 - lw) + ld<DT>(x, bot + c1) * lw;
    st<DT>(y, o, t * (1 - lh) + b * lh);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  const int64_t NC = x.shape[0] * x.shape[1], total = y.numel;
  if (total == 0) return 0;
  const int64_t want = (total + 255) / 256;
  resize<DT><<<(int)(want < 65535 ? want : 65535), 256, 0, s>>>(x.data, y.data, NC, x.shape[2], x.shape[3], y.shape[2],
                                                               y.shape[3], kope_attr_or(a, "align_corners", 0) != 0);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a, s) }
