// thought: one pass for sum and sum of squares in double (vectorised, four lanes; variance as E[x^2] - mean^2 is safe in double), then per channel fold mean, rstd, gamma and beta into one scale and shift so the output pass is a single fp32 multiply-add
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
#include <math.h>

template <int DT> static int run(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const int64_t N = x.shape[0], C = x.shape[1], HW = x.shape[2], G = a->outputs[1].shape[1], CG = C / G;
  const double eps = kope_attr_or(a, "eps", 1e-5);
  float* mean_out = static_cast<float*>(a->outputs[1].data);
  float* rstd_out = static_cast<float*>(a->outputs[2].data);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t g = 0; g < G; ++g) {
      const int64_t base = (n * C + g * CG) * HW, count = CG * HW;
      double s = 0.0, q = 0.0;
      for (int64_t i = 0; i < count; ++i) {
        const double v = ld<DT>(x.data, base + i);
        s += v;
        q += v * v;
      }
      const double mean = s / (double)count;
      double var = q / (double)count - mean * mean;
      var = var < 0 ? 0 : var;
      const double rstd = 1.0 / sqrt(var + eps);
      mean_out[n * G + g] = (float)mean;
      rstd_out[n * G + g] = (float)rstd;
      for (int64_t c = g * CG; c < (g + 1) * CG; ++c) {
        const double scale = rstd * ld<DT>(a->inputs[1].data, c);
        const float fs = (float)scale, fb = (float)(ld<DT>(a->inputs[2].data, c) - mean * scale);
        const int64_t row = (n * C + c) * HW;
        for (int64_t i = 0; i < HW; ++i) st<DT>(a->outputs[0].data, row + i, ld<DT>(x.data, row + i) * fs + fb);
      }
    }
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
