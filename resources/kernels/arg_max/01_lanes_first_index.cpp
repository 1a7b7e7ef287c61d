// thought: last-dim rows: 16 independent lanes each keep their strict-greater best and its index (vectorises as compare and blend), merged by max value then smallest index, so the first occurrence still wins; middle-dim: sweep r outer and b inner over running best arrays, contiguous instead of strided
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
#include <vector>

template <int DT> static void rows_last(const void* x, int64_t* out, int64_t A, int64_t R) {
  constexpr int L = 16;
  for (int64_t i = 0; i < A; ++i) {
    const int64_t base = i * R;
    float bv[L];
    int32_t bi[L];
    for (int l = 0; l < L; ++l) {
      bv[l] = -__builtin_inff();
      bi[l] = 0x7fffffff;
    }
    int64_t r = 0;
    for (; r + L <= R; r += L)
      for (int l = 0; l < L; ++l) {
        const float v = ld<DT>(x, base + r + l);
        const bool g = v > bv[l];
        bv[l] = g ? v : bv[l];
        bi[l] = g ? (int32_t)(r + l) : bi[l];
      }
    for (; r < R; ++r) {
      const float v = ld<DT>(x, base + r);
      if (v > bv[0]) {
        bv[0] = v;
        bi[0] = (int32_t)r;
      }
    }
    float best = bv[0];
    int32_t at = bi[0];
    for (int l = 1; l < L; ++l)
      if (bv[l] > best || (bv[l] == best && bi[l] < at)) {
        best = bv[l];
        at = bi[l];
      }
    out[i] = at == 0x7fffffff ? 0 : at;
  }
}

template <int DT> static void rows_mid(const void* x, int64_t* out, int64_t A, int64_t R, int64_t B) {
  std::vector<float> best(B);
  std::vector<int64_t> idx(B);
  for (int64_t i = 0; i < A; ++i) {
    for (int64_t b = 0; b < B; ++b) {
      best[b] = ld<DT>(x, i * R * B + b);
      idx[b] = 0;
    }
    for (int64_t r = 1; r < R; ++r) {
      const int64_t row = (i * R + r) * B;
      for (int64_t b = 0; b < B; ++b) {
        const float v = ld<DT>(x, row + b);
        const bool g = v > best[b];
        best[b] = g ? v : best[b];
        idx[b] = g ? r : idx[b];
      }
    }
    for (int64_t b = 0; b < B; ++b) out[i * B + b] = idx[b];
  }
}

template <int DT> static int run(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  int64_t* out = static_cast<int64_t*>(a->outputs[0].data);
  if (x.shape[2] == 1) rows_last<DT>(x.data, out, x.shape[0], x.shape[1]);
  else rows_mid<DT>(x.data, out, x.shape[0], x.shape[1], x.shape[2]);
  return 0;
}

int kope_kernel(const kope_args* a) { KOPE_BY_DTYPE(a->inputs[0].dtype, run, a) }
