// thought: rotate adjacent pairs (x[2i], x[2i+1]) in place of the two halves: the same rotation, and both elements of a pair share a cache line
// kope:cxxflags -O3 -march=native -fno-trapping-math
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

template <int DT> static void rope(const kope_tensor& x, const kope_tensor& c, const kope_tensor& s, const kope_tensor& o) {
  const int64_t rows = x.shape[0] * x.shape[1] * x.shape[2], S = x.shape[1], N = x.shape[2], D = x.shape[3];
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t e = r * D, cs = ((r / N) % S) * D;
    for (int64_t d = 0; d + 1 < D; d += 2) {
      const float x1 = ld<DT>(x.data, e + d), x2 = ld<DT>(x.data, e + d + 1);
      st<DT>(o.data, e + d, x1 * ld<DT>(c.data, cs + d) - x2 * ld<DT>(s.data, cs + d));
      st<DT>(o.data, e + d + 1, x2 * ld<DT>(c.data, cs + d + 1) + x1 * ld<DT>(s.data, cs + d + 1));
    }
  }
}

template <int DT> static int run(const kope_args* a) {
  rope<DT>(a->inputs[0], a->inputs[2], a->inputs[3], a->outputs[0]);
  rope<DT>(a->inputs[1], a->inputs[2], a->inputs[3], a->outputs[1]);
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
