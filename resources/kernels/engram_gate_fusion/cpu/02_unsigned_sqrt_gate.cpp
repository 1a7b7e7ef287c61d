// thought: the normalisers factor out of the dot product, sum(h rh wh * k rk wk) = rh rk sum(h k wh wk), so one AVX-512 sweep over a (token, stream) row gathers sum h^2, sum k^2 and sum h k (wh wk) together; the gate is sigmoid of the clamped square root sqrt(max(|g|, 1e-6)), and a second sweep over the row, still in L1, writes h + gate v
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <cmath>
#include <vector>

namespace {

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// 16 (masked) elements from element i of t as fp32.
inline __m512 load16(const kope_tensor& t, int64_t i, __mmask16 m) {
  if (t.dtype == KOPE_F32) return _mm512_maskz_loadu_ps(m, static_cast<const float*>(t.data) + i);
  const __m256i h = _mm256_maskz_loadu_epi16(m, static_cast<const uint16_t*>(t.data) + i);
  return t.dtype == KOPE_BF16 ? _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)) : _mm512_cvtph_ps(h);
}

inline void store16(const kope_tensor& t, int64_t i, __mmask16 m, __m512 v) {
  if (t.dtype == KOPE_F32) {
    _mm512_mask_storeu_ps(static_cast<float*>(t.data) + i, m, v);
    return;
  }
  uint16_t* p = static_cast<uint16_t*>(t.data) + i;
  if (t.dtype == KOPE_F16) {
    _mm256_mask_storeu_epi16(p, m, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    return;
  }
  // bf16, round to nearest even; NaN stays NaN (quieted)
  const __m512i u = _mm512_castps_si512(v);
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  __m512i r = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(u, _mm512_set1_epi32(0x7fff)), lsb), 16);
  const __mmask16 nan = _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  r = _mm512_mask_or_epi32(r, nan, _mm512_srli_epi32(u, 16), _mm512_set1_epi32(0x40));
  _mm256_mask_storeu_epi16(p, m, _mm512_cvtepi32_epi16(r));
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor &h = a->inputs[0], &k = a->inputs[1], &v = a->inputs[2];
  const float* wh = static_cast<const float*>(a->inputs[3].data);
  const float* wk = static_cast<const float*>(a->inputs[4].data);
  const kope_tensor& y = a->outputs[0];
  float* gate = static_cast<float*>(a->outputs[1].data);
  const int64_t T = h.shape[0], S = h.shape[1], D = h.shape[2];
  const float eps = (float)kope_attr_or(a, "epsilon", 1e-6);
  const float inv_sqrt_d = (float)(1.0 / std::sqrt((double)D));

  static thread_local std::vector<float> w;
  w.resize(S * D);
  for (int64_t i = 0; i < S * D; ++i) w[i] = wh[i] * wk[i];
  for (int64_t t = 0; t < T; ++t)
    for (int64_t s = 0; s < S; ++s) {
      const int64_t row = (t * S + s) * D;
      __m512 hh = _mm512_setzero_ps(), kk = _mm512_setzero_ps(), hk = _mm512_setzero_ps();
      __m512 hh2 = _mm512_setzero_ps(), kk2 = _mm512_setzero_ps(), hk2 = _mm512_setzero_ps();
      int64_t d = 0;
      for (; d + 32 <= D; d += 32) {  // two chains per sum: the FMA latency, not the loads, would bound one
        const __m512 h0 = load16(h, row + d, 0xffff), k0 = load16(k, row + d, 0xffff);
        const __m512 h1 = load16(h, row + d + 16, 0xffff), k1 = load16(k, row + d + 16, 0xffff);
        hh = _mm512_fmadd_ps(h0, h0, hh);
        kk = _mm512_fmadd_ps(k0, k0, kk);
        hk = _mm512_fmadd_ps(_mm512_mul_ps(h0, k0), _mm512_loadu_ps(&w[s * D + d]), hk);
        hh2 = _mm512_fmadd_ps(h1, h1, hh2);
        kk2 = _mm512_fmadd_ps(k1, k1, kk2);
        hk2 = _mm512_fmadd_ps(_mm512_mul_ps(h1, k1), _mm512_loadu_ps(&w[s * D + d + 16]), hk2);
      }
      for (; d < D; d += 16) {
        const __mmask16 m = tail_mask(D - d);
        const __m512 h0 = load16(h, row + d, m), k0 = load16(k, row + d, m);
        hh = _mm512_fmadd_ps(h0, h0, hh);
        kk = _mm512_fmadd_ps(k0, k0, kk);
        hk = _mm512_fmadd_ps(_mm512_mul_ps(h0, k0), _mm512_maskz_loadu_ps(m, &w[s * D + d]), hk);
      }
      const float sh = _mm512_reduce_add_ps(_mm512_add_ps(hh, hh2)), sk = _mm512_reduce_add_ps(_mm512_add_ps(kk, kk2));
      const float shk = _mm512_reduce_add_ps(_mm512_add_ps(hk, hk2));
      const float rh = 1.0f / std::sqrt(sh / (float)D + eps), rk = 1.0f / std::sqrt(sk / (float)D + eps);
      const float g = shk * rh * rk * inv_sqrt_d;
      const float mag = std::fabs(g) < 1e-6f ? 1e-6f : std::fabs(g);
      const float gv = 1.0f / (1.0f + std::exp(-std::sqrt(mag)));
      gate[t * S + s] = gv;
      const __m512 gb = _mm512_set1_ps(gv);
      for (int64_t e = 0; e < D; e += 16) {
        const __mmask16 m = tail_mask(D - e);
        store16(y, row + e, m, _mm512_fmadd_ps(gb, load16(v, t * D + e, m), load16(h, row + e, m)));
      }
    }
  return 0;
}
