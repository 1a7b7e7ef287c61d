// thought: one vectorised pass for the sum of squares (accumulated in double, four lanes) and one fused pass y = x * (rstd * gamma); typed loads instead of a dtype switch per element
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

template <int DT> static int run(const kope_args* a) {
  const void* x = a->inputs[0].data;
  const void* g = a->inputs[1].data;
  void* y = a->outputs[0].data;
  float* rstd_out = static_cast<float*>(a->outputs[1].data);
  const int64_t M = a->inputs[0].shape[0], D = a->inputs[0].shape[1];
  const double eps = kope_attr_or(a, "eps", 1e-6);
  for (int64_t m = 0; m < M; ++m) {
    double acc = 0.0;
    for (int64_t d = 0; d < D; ++d) {
      const double v = ld<DT>(x, m * D + d);
      acc += v * v;
    }
    const float rstd = (float)(1.0 / __builtin_sqrt(acc / (double)D + eps));
    rstd_out[m] = rstd;
    for (int64_t d = 0; d < D; ++d) st<DT>(y, m * D + d, ld<DT>(x, m * D + d) * rstd * ld<DT>(g, d));
  }
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
