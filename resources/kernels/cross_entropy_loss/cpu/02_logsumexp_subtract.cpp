// thought: the textbook stable form: lse = max + log(sum exp(x - max)) once per row, then log_prob = x - lse in one vectorised pass and the loss from the target's entry
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

// expf as plain arithmetic GCC can vectorise (Cephes' polynomial on [-ln2/2, ln2/2], 2^k through the exponent
// bits), for x <= 88; below -87.3 it returns about 1e-38 instead of denormals or 0.
static inline float exp_vec(float x) {
  x = x < -87.3f ? -87.3f : (x > 88.0f ? 88.0f : x);
  const float k = __builtin_rintf(x * 1.44269504088896341f);
  const float r = (x - k * 0.693359375f) + k * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float e = p * r * r + r + 1.0f;
  const int32_t bits = ((int32_t)k + 127) << 23;
  float scale;
  __builtin_memcpy(&scale, &bits, 4);
  return e * scale;
}
#include <math.h>

template <int DT> static int run(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const int64_t N = x.shape[0], C = x.shape[1];
  const int64_t ignore = (int64_t)kope_attr_or(a, "ignore_index", -100);
  const double ls = kope_attr_or(a, "label_smoothing", 0.0);
  double total = 0.0;
  int64_t count = 0;
  for (int64_t n = 0; n < N; ++n) {
    float mx = ld<DT>(x.data, n * C);
    for (int64_t c = 0; c < C; ++c) mx = fmaxf(mx, ld<DT>(x.data, n * C + c));
    double sum = 0.0, xs = 0.0;
    for (int64_t c = 0; c < C; ++c) {
      sum += exp_vec(ld<DT>(x.data, n * C + c) - mx);
      xs += ld<DT>(x.data, n * C + c);
    }
    const float lse = mx + logf((float)sum);
    for (int64_t c = 0; c < C; ++c) st<DT>(a->outputs[1].data, n * C + c, ld<DT>(x.data, n * C + c) - lse);
    const int64_t t = ((const int64_t*)a->inputs[1].data)[n];
    if (t == ignore) continue;
    total += (1 - ls) * (lse - ld<DT>(x.data, n * C + t)) + ls * (lse - xs / (double)C);
    count += 1;
  }
  static_cast<float*>(a->outputs[0].data)[0] = count ? (float)(total / count) : __builtin_nanf("");
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
