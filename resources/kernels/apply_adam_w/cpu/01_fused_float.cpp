// thought: one fused fp32 pass over the four streams with the bias corrections and step size folded into constants once per call; vectorised sqrt, typed loads for fp16/bf16
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
  const double lr = kope_attr_or(a, "lr", 1e-3), b1 = kope_attr_or(a, "beta1", 0.9);
  const double b2 = kope_attr_or(a, "beta2", 0.999), eps = kope_attr_or(a, "eps", 1e-8);
  const double wd = kope_attr_or(a, "weight_decay", 0.01), step = kope_attr_or(a, "step", 1);
  const float decay = (float)(1 - lr * wd), fb1 = (float)b1, cb1 = (float)(1 - b1), fb2 = (float)b2, cb2 = (float)(1 - b2);
  const float inv_bc2_sqrt = (float)(1 / sqrt(1 - pow(b2, step))), step_size = (float)(lr / (1 - pow(b1, step)));
  const float feps = (float)eps;
  const void *p = a->inputs[0].data, *m = a->inputs[1].data, *v = a->inputs[2].data, *g = a->inputs[3].data;
  void *po = a->outputs[0].data, *mo = a->outputs[1].data, *vo = a->outputs[2].data;
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float gi = ld<DT>(g, i);
    const float mi = fb1 * ld<DT>(m, i) + cb1 * gi;
    const float vi = fb2 * ld<DT>(v, i) + cb2 * gi * gi;
    const float pi = ld<DT>(p, i) * decay - step_size * mi / (sqrtf(vi) * inv_bc2_sqrt + feps);
    st<DT>(po, i, pi);
    st<DT>(mo, i, mi);
    st<DT>(vo, i, vi);
  }
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
