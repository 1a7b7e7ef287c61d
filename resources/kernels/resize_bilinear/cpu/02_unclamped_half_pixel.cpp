// thought: half-pixel centres src = (dst + 0.5) * in / out - 0.5 with the integer part by truncation, precomputed per row and column; the first source coordinate of an upscale is a hair below zero, which truncation already maps to pixel 0
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <immintrin.h>

// Element access by storage type, resolved at compile time: fp32, fp16 (F16C), bf16.
template <int DT> static inline float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return _cvtsh_ss(static_cast<const uint16_t*>(p)[i]);
  else if constexpr (DT == KOPE_BF16) return kope_bf16_to_f32(static_cast<const uint16_t*>(p)[i]);
  else return static_cast<const float*>(p)[i];
}
template <int DT> static inline void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<uint16_t*>(p)[i] = _cvtss_sh(v, 0);
  else if constexpr (DT == KOPE_BF16) static_cast<uint16_t*>(p)[i] = kope_f32_to_bf16(v);
  else static_cast<float*>(p)[i] = v;
}
#define KOPE_BY_DTYPE(dt, F, ...)                        \
  switch (dt) {                                          \
    case KOPE_F16: return F<KOPE_F16>(__VA_ARGS__);      \
    case KOPE_BF16: return F<KOPE_BF16>(__VA_ARGS__);    \
    case KOPE_F32: return F<KOPE_F32>(__VA_ARGS__);      \
    default: return 7;                                   \
  }
#include <vector>

static double source(int64_t dst, int64_t in, int64_t out, bool align) {
  if (align) return out > 1 ? (double)dst * (double)(in - 1) / (double)(out - 1) : 0.0;
  return ((double)dst + 0.5) * (double)in / (double)out - 0.5;
}

template <int DT> static int run(const kope_args* a) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  const bool align = kope_attr_or(a, "align_corners", 0) != 0;
  const int64_t NC = x.shape[0] * x.shape[1], H = x.shape[2], W = x.shape[3], HO = y.shape[2], WO = y.shape[3];
  std::vector<int64_t> c0(WO), c1(WO), r0(HO), r1(HO);
  std::vector<float> cw(WO), rw(HO);
  for (int64_t o = 0; o < WO; ++o) {
    const double s = source(o, W, WO, align);
    c0[o] = (int64_t)s;
    c1[o] = c0[o] + 1 < W ? c0[o] + 1 : W - 1;
    cw[o] = (float)(s - (double)c0[o]);
  }
  for (int64_t o = 0; o < HO; ++o) {
    const double s = source(o, H, HO, align);
    r0[o] = (int64_t)s;
    r1[o] = r0[o] + 1 < H ? r0[o] + 1 : H - 1;
    rw[o] = (float)(s - (double)r0[o]);
  }
  for (int64_t p = 0; p < NC; ++p)
    for (int64_t oh = 0; oh < HO; ++oh)
      for (int64_t ow = 0; ow < WO; ++ow) {
        const int64_t top = p * H * W + r0[oh] * W, bot = p * H * W + r1[oh] * W;
        const float t = ld<DT>(x.data, top + c0[ow]) * (1 - cw[ow]) + ld<DT>(x.data, top + c1[ow]) * cw[ow];
        const float b = ld<DT>(x.data, bot + c0[ow]) * (1 - cw[ow]) + ld<DT>(x.data, bot + c1[ow]) * cw[ow];
        st<DT>(y.data, (p * HO + oh) * WO + ow, t * (1 - rw[oh]) + b * rw[oh]);
      }
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
