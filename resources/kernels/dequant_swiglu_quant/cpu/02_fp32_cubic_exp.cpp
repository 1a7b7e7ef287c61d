// thought: one row at a time, 16 outputs per step: dequantise both halves with vcvtdq2ps and two fp32 multiplies, take Swish in fp32 with a cheap exp (2^k by scalef times a cubic in r: good to 1e-4, plenty for an int8 output), multiply by b and the smooth scale, keep the row in an L1 buffer with its running max |v|; a second sweep divides by the scale, rounds half-even and narrows to int8
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <vector>

namespace {

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// exp(x) in fp32: x = k ln2 + r, |r| <= ln2/2, a cubic in r, times 2^k by vscalefps.
inline __m512 exp_ps(__m512 x) {
  const __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504f)), _MM_FROUND_TO_NEAREST_INT);
  const __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0.693147181f), x);
  __m512 p = _mm512_set1_ps(1.0f / 6);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, k);
}

inline __m512 swish(__m512 a) {
  return _mm512_div_ps(a, _mm512_add_ps(_mm512_set1_ps(1.0f), exp_ps(_mm512_sub_ps(_mm512_setzero_ps(), a))));
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
