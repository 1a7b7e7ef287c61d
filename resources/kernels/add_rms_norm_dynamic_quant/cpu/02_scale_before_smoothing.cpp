// thought: one row at a time in three AVX-512 sweeps: add x1 + x2 in fp32, store x_out and keep the sum in an L1-resident row buffer while summing squares in double; then the normalised row (s * r) * gamma, whose running max |y| / 127 is the dynamic quant's scale, smoothed by smooth_scale on the way to the buffer; then divide by the scale, round half-even and narrow to int8 with signed saturation
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <cmath>
#include <vector>

namespace {

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// 16 (masked) elements of a fp16 or bf16 row as fp32.
inline __m512 load16(const uint16_t* p, bool bf16, __mmask16 m) {
  const __m256i h = _mm256_maskz_loadu_epi16(m, p);
  return bf16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)) : _mm512_cvtph_ps(h);
}

// fp32 to fp16 or bf16, round to nearest even (the inputs hold no NaN).
inline __m256i narrow16(__m512 v, bool bf16) {
  if (!bf16) return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  const __m512i u = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  const __m512i r = _mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb);
  return _mm512_cvtepi32_epi16(_mm512_srli_epi32(r, 16));
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor &x1 = a->inputs[0], &x2 = a->inputs[1], &gamma = a->inputs[2], &smooth = a->inputs[3];
  const kope_tensor &xo = a->outputs[0], &yt = a->outputs[1], &sc = a->outputs[2];
  const int64_t M = x1.shape[0], D = x1.shape[1];
  const bool bf16 = x1.dtype == KOPE_BF16;
  const float eps = (float)kope_attr_or(a, "epsilon", 1e-6);
  const uint16_t* p1 = static_cast<const uint16_t*>(x1.data);
  const uint16_t* p2 = static_cast<const uint16_t*>(x2.data);
  uint16_t* po = static_cast<uint16_t*>(xo.data);
  int8_t* y = static_cast<int8_t*>(yt.data);
  float* scale = static_cast<float*>(sc.data);

  static thread_local std::vector<float> s, g, w;
  s.resize(D + 16);
  g.resize(D + 16);
  w.resize(D + 16);
  for (int64_t d = 0; d < D; d += 16) {
    const __mmask16 m = tail_mask(D - d);
    _mm512_storeu_ps(&g[d], load16(static_cast<const uint16_t*>(gamma.data) + d, bf16, m));
    _mm512_storeu_ps(&w[d], load16(static_cast<const uint16_t*>(smooth.data) + d, bf16, m));
  }
  for (int64_t r = 0; r < M; ++r) {
    const int64_t base = r * D;
    __m512d ss0 = _mm512_setzero_pd(), ss1 = _mm512_setzero_pd();
    for (int64_t d = 0; d < D; d += 16) {
      const __mmask16 m = tail_mask(D - d);
      const __m512 v = _mm512_add_ps(load16(p1 + base + d, bf16, m), load16(p2 + base + d, bf16, m));
      _mm512_storeu_ps(&s[d], v);
      _mm256_mask_storeu_epi16(po + base + d, m, narrow16(v, bf16));
      const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
      const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
      ss0 = _mm512_fmadd_pd(lo, lo, ss0);  // float squares are exact in double: fused or not, the same
      ss1 = _mm512_fmadd_pd(hi, hi, ss1);  // (masked-off lanes were loaded as zeros)
    }
    const double ss = _mm512_reduce_add_pd(_mm512_add_pd(ss0, ss1));
    const float rs = 1.0f / std::sqrt((float)(ss / (double)D) + eps);
    const __m512 rv = _mm512_set1_ps(rs);
    __m512 amax = _mm512_setzero_ps();
    for (int64_t d = 0; d < D; d += 16) {
      const __mmask16 m = tail_mask(D - d);
      const __m512 yn = _mm512_mul_ps(_mm512_mul_ps(_mm512_loadu_ps(&s[d]), rv), _mm512_loadu_ps(&g[d]));
      _mm512_storeu_ps(&s[d], _mm512_mul_ps(yn, _mm512_loadu_ps(&w[d])));
      amax = _mm512_mask_max_ps(amax, m, amax, _mm512_abs_ps(yn));
    }
    const float sv = _mm512_reduce_max_ps(amax) / 127.0f;
    scale[r] = sv;
    const __m512 scv = _mm512_set1_ps(sv);
    for (int64_t d = 0; d < D; d += 16) {
      const __mmask16 m = tail_mask(D - d);
      // rounding mode nearest-even (the default MXCSR); the int8 conversion saturates
      __m512i q = _mm512_cvtps_epi32(_mm512_div_ps(_mm512_loadu_ps(&s[d]), scv));
      if (sv == 0.0f) q = _mm512_setzero_si512();
      _mm_mask_storeu_epi8(y + base + d, m, _mm512_cvtsepi32_epi8(q));
    }
  }
  return 0;
}
