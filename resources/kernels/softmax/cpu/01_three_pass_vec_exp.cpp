// thought: per row three vectorised passes (max, exp and a blocked sum, scale by the reciprocal) with a polynomial expf GCC vectorises; the block sums go to a double so a 1M-element row stays within fp32's threshold; 16-bit rows go through a float scratch row
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
#include <vector>

static void softmax_row(const float* __restrict x, float* __restrict y, int64_t N) {
  float mx = x[0];
  for (int64_t n = 0; n < N; ++n) mx = x[n] > mx ? x[n] : mx;
  double total = 0.0;
  for (int64_t b = 0; b < N; b += 1024) {
    const int64_t e = b + 1024 < N ? b + 1024 : N;
    float s = 0.0f;
    for (int64_t n = b; n < e; ++n) {
      const float v = exp_vec(x[n] - mx);
      y[n] = v;
      s += v;
    }
    total += s;
  }
  const float inv = (float)(1.0 / total);
  for (int64_t n = 0; n < N; ++n) y[n] *= inv;
}

template <int DT> static int run(const kope_args* a) {
  const int64_t M = a->inputs[0].shape[0], N = a->inputs[0].shape[1];
  if constexpr (DT == KOPE_F32) {
    const float* x = static_cast<const float*>(a->inputs[0].data);
    float* y = static_cast<float*>(a->outputs[0].data);
    for (int64_t m = 0; m < M; ++m) softmax_row(x + m * N, y + m * N, N);
  } else {
    thread_local std::vector<float> in, out;
    in.resize(N);
    out.resize(N);
    for (int64_t m = 0; m < M; ++m) {
      for (int64_t n = 0; n < N; ++n) in[n] = ld<DT>(a->inputs[0].data, m * N + n);
      softmax_row(in.data(), out.data(), N);
      for (int64_t n = 0; n < N; ++n) st<DT>(a->outputs[0].data, m * N + n, out[n]);
    }
  }
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
