// thought: per (b, s, head) handle the two halves as two contiguous vector loops (o1 = x1 c1 - x2 s1, o2 = x2 c2 + x1 s2) against the position's cos/sin rows, no per-element branch on the half
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
  const int64_t B = x.shape[0], S = x.shape[1], N = x.shape[2], D = x.shape[3], H = D / 2;
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < S; ++t)
      for (int64_t n = 0; n < N; ++n) {
        const int64_t e = ((b * S + t) * N + n) * D;
        const int64_t cs = t * D;
        for (int64_t d = 0; d < H; ++d) {
          const float x1 = ld<DT>(x.data, e + d), x2 = ld<DT>(x.data, e + H + d);
          st<DT>(o.data, e + d, x1 * ld<DT>(c.data, cs + d) - x2 * ld<DT>(s.data, cs + d));
          st<DT>(o.data, e + H + d, x2 * ld<DT>(c.data, cs + H + d) + x1 * ld<DT>(s.data, cs + H + d));
        }
      }
}

template <int DT> static int run(const kope_args* a) {
  rope<DT>(a->inputs[0], a->inputs[2], a->inputs[3], a->outputs[0]);
  rope<DT>(a->inputs[1], a->inputs[2], a->inputs[3], a->outputs[1]);
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
