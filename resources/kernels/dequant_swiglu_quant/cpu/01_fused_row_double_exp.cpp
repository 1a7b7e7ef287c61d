// thought: one row at a time, 16 outputs per step: dequantise both halves with vcvtdq2ps and two fp32 multiplies, take Swish in double with an inline degree-13 exp (scalef does the 2^k, so overflow gives -0 as the task wants) and round it once to fp32, multiply by b and the smooth scale, keep the row in an L1 buffer with its running max |v|; a second sweep divides by the scale, rounds half-even and narrows to int8
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <vector>

namespace {

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// exp(x) in double to about one ulp: x = k ln2 + r, |r| <= ln2/2, Taylor to r^13, times 2^k by vscalefpd (inf and 0
// past the ends of the range).
inline __m512d exp_pd(__m512d x) {
  const __m512d k = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(1.4426950408889634)), _MM_FROUND_TO_NEAREST_INT);
  __m512d r = _mm512_fnmadd_pd(k, _mm512_set1_pd(6.93147180369123816490e-01), x);
  r = _mm512_fnmadd_pd(k, _mm512_set1_pd(1.90821492927058770002e-10), r);
  static const double c[14] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
                               1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800.0};
  __m512d p = _mm512_set1_pd(c[13]);
  for (int i = 12; i >= 0; --i) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(c[i]));
  return _mm512_scalef_pd(p, k);
}

// a / (1 + exp(-a)) in double, rounded once to fp32.
inline __m512 swish(__m512 a) {
  const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(a));
  const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)));
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d slo = _mm512_div_pd(lo, _mm512_add_pd(one, exp_pd(_mm512_sub_pd(_mm512_setzero_pd(), lo))));
  const __m512d shi = _mm512_div_pd(hi, _mm512_add_pd(one, exp_pd(_mm512_sub_pd(_mm512_setzero_pd(), hi))));
  return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(slo)), _mm512_cvtpd_ps(shi), 1);
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor &xt = a->inputs[0], &wst = a->inputs[1], &ast = a->inputs[2], &qst = a->inputs[3];
  const int64_t M = xt.shape[0], H = xt.shape[1] / 2;
  const int32_t* x = static_cast<const int32_t*>(xt.data);
  const float* ws = static_cast<const float*>(wst.data);
  const float* as = static_cast<const float*>(ast.data);
  const float* qs = static_cast<const float*>(qst.data);
  int8_t* y = static_cast<int8_t*>(a->outputs[0].data);
  float* scale = static_cast<float*>(a->outputs[1].data);
  const bool left = kope_attr_or(a, "activate_left", 1) != 0;
  const int64_t oa = left ? 0 : H, ob = left ? H : 0;  // where the activated half and the other start

  static thread_local std::vector<float> v;
  v.resize(H + 16);
  for (int64_t m = 0; m < M; ++m) {
    const int32_t* row = x + m * 2 * H;
    const __m512 act = _mm512_set1_ps(as[m]);
    __m512 amax = _mm512_setzero_ps();
    for (int64_t j = 0; j < H; j += 16) {
      const __mmask16 k = tail_mask(H - j);
      const __m512 xa = _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(k, row + oa + j));
      const __m512 xb = _mm512_cvtepi32_ps(_mm512_maskz_loadu_epi32(k, row + ob + j));
      const __m512 A = _mm512_mul_ps(_mm512_mul_ps(xa, _mm512_maskz_loadu_ps(k, ws + oa + j)), act);
      const __m512 B = _mm512_mul_ps(_mm512_mul_ps(xb, _mm512_maskz_loadu_ps(k, ws + ob + j)), act);
      const __m512 t = _mm512_mul_ps(_mm512_mul_ps(swish(A), B), _mm512_maskz_loadu_ps(k, qs + j));
      _mm512_storeu_ps(&v[j], t);
      amax = _mm512_mask_max_ps(amax, k, amax, _mm512_abs_ps(t));
    }
    const float sv = _mm512_reduce_max_ps(amax) / 127.0f;
    scale[m] = sv;
    const __m512 scv = _mm512_set1_ps(sv);
    for (int64_t j = 0; j < H; j += 16) {
      const __mmask16 k = tail_mask(H - j);
      __m512i q = _mm512_cvtps_epi32(_mm512_div_ps(_mm512_loadu_ps(&v[j]), scv));  // nearest-even: the default MXCSR
      if (sv == 0.0f) q = _mm512_setzero_si512();
      _mm_mask_storeu_epi8(y + m * H + j, k, _mm512_cvtsepi32_epi8(q));
    }
  }
  return 0;
}
