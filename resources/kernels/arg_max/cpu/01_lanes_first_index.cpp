// thought: last-dim rows: 16 independent lanes (GCC vector types) each keep their strict-greater best and its index as a vector compare and blend, merged by max value then smallest index, so the first occurrence still wins; NaN is the maximum (torch's argmax), so a NaN flag per lane sends a row that holds one to a scan for its first NaN; middle-dim: sweep r outer and b inner over running best arrays, contiguous instead of strided
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

// 16 lanes as GCC vector types, so the compare, the blends and the NaN test are vector instructions on any
// x86-64 level (the compiler splits them where the vectors are narrower).
typedef float vf16 __attribute__((vector_size(64)));
typedef int32_t vi16 __attribute__((vector_size(64)));

template <int DT> static inline vf16 ld16(const void* x, int64_t i) {
  float t[16];
  for (int l = 0; l < 16; ++l) t[l] = ld<DT>(x, i + l);
  vf16 v;
  memcpy(&v, t, sizeof v);
  return v;
}

template <int DT> static void rows_last(const void* x, int64_t* out, int64_t A, int64_t R) {
  constexpr int L = 16;
  const vi16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  for (int64_t i = 0; i < A; ++i) {
    const int64_t base = i * R;
    vf16 bv = -__builtin_inff() + (vf16){};
    vi16 bi = 0x7fffffff + (vi16){}, nan = (vi16){};
    int64_t r = 0;
    for (; r + L <= R; r += L) {
      const vf16 v = ld16<DT>(x, base + r);
      const vi16 g = v > bv;  // -1 where greater: NaN never is, so it is tracked apart
      bv = g ? v : bv;
      bi = g ? lane + (int32_t)r : bi;
      nan |= v != v;
    }
    float best = -__builtin_inff();
    int32_t at = 0x7fffffff, any_nan = 0;
    for (int l = 0; l < L; ++l) {
      any_nan |= nan[l];
      if (bv[l] > best || (bv[l] == best && bi[l] < at)) {
        best = bv[l];
        at = bi[l];
      }
    }
    for (; r < R; ++r) {
      const float v = ld<DT>(x, base + r);
      any_nan |= v != v;
      if (v > best) {
        best = v;
        at = (int32_t)r;
      }
    }
    if (any_nan) {  // NaN is the maximum (torch's argmax) and the first one wins: rare, so a second scan finds it
      int64_t k = 0;
      while (ld<DT>(x, base + k) == ld<DT>(x, base + k)) ++k;
      at = (int32_t)k;
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
        const bool g = v > best[b] || (v != v && best[b] == best[b]);  // NaN is the maximum, the first wins
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
