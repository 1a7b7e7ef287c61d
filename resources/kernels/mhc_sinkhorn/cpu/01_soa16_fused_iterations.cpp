// thought: the matrices are tiny (N = 4 streams) and the work is 40 normalisation sweeps over each, so ATen's 80 kernel launches over the whole tensor are all memory traffic; instead take 16 matrices at a time, transpose them into a structure-of-arrays block in L1 (element e of all 16 in one zmm), and run the softmax and every sweep as plain 16-lane vector ops with one reciprocal per row or column; memory is read and written once
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <immintrin.h>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

template <int DT> inline float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F32) return static_cast<const float*>(p)[i];
  else if constexpr (DT == KOPE_F16) return _cvtsh_ss(static_cast<const uint16_t*>(p)[i]);
  else return kope_bf16_to_f32(static_cast<const uint16_t*>(p)[i]);
}
template <int DT> inline void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F32) static_cast<float*>(p)[i] = v;
  else if constexpr (DT == KOPE_F16) static_cast<uint16_t*>(p)[i] = _cvtss_sh(v, 0);
  else static_cast<uint16_t*>(p)[i] = kope_f32_to_bf16(v);
}

// e^x for x <= 0 (and NaN): 2^n * p(r), r = x - n ln2, a degree-6 polynomial (about 1 ulp); below -104 gives 0,
// NaN stays NaN (max returns its second operand when one is NaN).
inline __m512 exp512(__m512 x) {
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), x);
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)), 0);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  return _mm512_scalef_ps(p, n);
}

// b[e] holds element e of 16 matrices. Row softmax plus eps: a NaN or inf in a row makes the row NaN (inf - inf).
inline void softmax_rows(__m512* b, int64_t N, __m512 eps) {
  for (int64_t i = 0; i < N; ++i) {
    __m512* r = b + i * N;
    __m512 mx = r[0];
    for (int64_t j = 1; j < N; ++j) mx = _mm512_max_ps(mx, r[j]);
    __m512 s = _mm512_setzero_ps();
    for (int64_t j = 0; j < N; ++j) s = _mm512_add_ps(s, r[j] = exp512(_mm512_sub_ps(r[j], mx)));
    const __m512 inv = _mm512_div_ps(_mm512_set1_ps(1.0f), s);
    for (int64_t j = 0; j < N; ++j) r[j] = _mm512_fmadd_ps(r[j], inv, eps);
  }
}

// Divides each row (stride 1, lines N apart) or each column (stride N, lines 1 apart) by its sum plus eps.
inline void normalise(__m512* b, int64_t N, int64_t stride, int64_t line, __m512 eps) {
  for (int64_t i = 0; i < N; ++i) {
    __m512* r = b + i * line;
    __m512 s = eps;
    for (int64_t j = 0; j < N; ++j) s = _mm512_add_ps(s, r[j * stride]);
    const __m512 inv = _mm512_div_ps(_mm512_set1_ps(1.0f), s);
    for (int64_t j = 0; j < N; ++j) r[j * stride] = _mm512_mul_ps(r[j * stride], inv);
  }
}

template <int DT> int run(const kope_args* a) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  const int64_t N = x.shape[x.ndim - 1], NN = N * N, T = NN ? x.numel / NN : 0;
  const int iters = (int)kope_attr_or(a, "num_iters", 20);
  const __m512 eps = _mm512_set1_ps((float)kope_attr_or(a, "eps", 1e-6));
  static std::vector<__m512> buf;
  buf.resize(NN);
  __m512* b = buf.data();
  alignas(64) float lanes[16];
  for (int64_t t0 = 0; t0 < T; t0 += 16) {
    const int m = (int)std::min<int64_t>(16, T - t0);
    const int64_t base = t0 * NN;
    for (int64_t e = 0; e < NN; ++e) {  // gather element e of the 16 matrices (lanes past m are 0)
      for (int l = 0; l < 16; ++l) lanes[l] = l < m ? ld<DT>(x.data, base + l * NN + e) : 0.0f;
      b[e] = _mm512_load_ps(lanes);
    }
    softmax_rows(b, N, eps);
    for (int k = 0; k < iters; ++k) {
      if (k > 0) normalise(b, N, 1, N, eps);
      normalise(b, N, N, 1, eps);
    }
    for (int64_t e = 0; e < NN; ++e) {
      _mm512_store_ps(lanes, b[e]);
      for (int l = 0; l < m; ++l) st<DT>(y.data, base + l * NN + e, lanes[l]);
    }
  }
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  switch (a->inputs[0].dtype) {
    case KOPE_F32: return run<KOPE_F32>(a);
    case KOPE_F16: return run<KOPE_F16>(a);
    case KOPE_BF16: return run<KOPE_BF16>(a);
    default: return 7;
  }
}
