// thought: flash attention per query head with an online softmax over key blocks of 64 and AVX-512 register tiles; the H query heads take the HKV key/value heads in turn, head h reading kv head h % HKV as k.repeat(1, G, 1, 1) lays them out
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <immintrin.h>
#include <stdlib.h>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

constexpr int BQ = 32, BK = 64;

// Up to 16 elements of a row as fp32, by storage type (fp32, fp16, bf16); lanes past n are 0.
template <int DT> inline __m512 ld16(const void* p, int64_t i, int n = 16) {
  const __mmask16 m = n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1);
  if constexpr (DT == KOPE_F32) return _mm512_maskz_loadu_ps(m, static_cast<const float*>(p) + i);
  const __m256i h = _mm256_maskz_loadu_epi16(m, static_cast<const uint16_t*>(p) + i);
  if constexpr (DT == KOPE_F16) return _mm512_cvtph_ps(h);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}
template <int DT> inline void st1(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F32) static_cast<float*>(p)[i] = v;
  else if constexpr (DT == KOPE_F16) static_cast<uint16_t*>(p)[i] = _cvtss_sh(v, 0);
  else static_cast<uint16_t*>(p)[i] = kope_f32_to_bf16(v);
}

// e^x for x <= 0 (and NaN): 2^n * p(r) with r = x - n ln2, a degree-6 polynomial (about 1 ulp); -inf and
// anything below -104 give 0 through scalef, NaN stays NaN.
inline __m512 exp512(__m512 x) {
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), x);  // NaN in x: max returns x
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

// The per-call scratch: transposed key blocks, padded values, one query block's Q, scores, output, max, sum.
struct Scratch {
  std::vector<float> kt, vp, q, p, o, m, l, sc;
};

// Scores of R query rows against one packed key block: P[r][0..64) = Q[r] . Kt[:, 0..64).
template <int R> inline void scores(const float* q, int64_t D, const float* kt, float* p) {
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) acc[r][c] = _mm512_setzero_ps();
  for (int64_t d = 0; d < D; ++d) {
    const float* k = kt + d * BK;
    const __m512 k0 = _mm512_loadu_ps(k), k1 = _mm512_loadu_ps(k + 16), k2 = _mm512_loadu_ps(k + 32),
                 k3 = _mm512_loadu_ps(k + 48);
    for (int r = 0; r < R; ++r) {
      const __m512 qb = _mm512_set1_ps(q[r * D + d]);
      acc[r][0] = _mm512_fmadd_ps(qb, k0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(qb, k1, acc[r][1]);
      acc[r][2] = _mm512_fmadd_ps(qb, k2, acc[r][2]);
      acc[r][3] = _mm512_fmadd_ps(qb, k3, acc[r][3]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) _mm512_storeu_ps(p + r * BK + c * 16, acc[r][c]);
}

// O[r][dc .. dc + 16 NV) += sum_j P[r][j] V[j][dc ..] for R rows and nj keys.
template <int R, int NV> inline void pv(const float* p, const float* v, int64_t Dp, int nj, float* o, int64_t dc) {
  __m512 acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_loadu_ps(o + r * Dp + dc + c * 16);
  for (int j = 0; j < nj; ++j) {
    __m512 vv[NV];
    for (int c = 0; c < NV; ++c) vv[c] = _mm512_loadu_ps(v + j * Dp + dc + c * 16);
    for (int r = 0; r < R; ++r) {
      const __m512 pb = _mm512_set1_ps(p[r * BK + j]);
      for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_fmadd_ps(pb, vv[c], acc[r][c]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) _mm512_storeu_ps(o + r * Dp + dc + c * 16, acc[r][c]);
}

template <int R> void pv_rows(const float* p, const float* v, int64_t Dp, int nj, float* o) {
  for (int64_t dc = 0; dc < Dp; dc += 64) {
    switch ((int)std::min<int64_t>(4, (Dp - dc) / 16)) {
      case 4: pv<R, 4>(p, v, Dp, nj, o, dc); break;
      case 3: pv<R, 3>(p, v, Dp, nj, o, dc); break;
      case 2: pv<R, 2>(p, v, Dp, nj, o, dc); break;
      default: pv<R, 1>(p, v, Dp, nj, o, dc); break;
    }
  }
}

// One row's online-softmax step over a block of scores (masked ones -inf): the new running max, the block's
// exponentials in place, the rescaled sum and output row. A NaN score makes the row's max, and so its output, NaN.
inline void online_softmax(float* p, float& m, float& l, float* orow, int64_t Dp) {
  __m512 mx = _mm512_set1_ps(-INFINITY);
  __mmask16 nan = 0;
  for (int c = 0; c < BK; c += 16) {
    const __m512 x = _mm512_loadu_ps(p + c);
    nan |= _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q);
    mx = _mm512_max_ps(mx, x);
  }
  float mnew = std::max(m, _mm512_reduce_max_ps(mx));
  if (nan || m != m) mnew = NAN;
  const float alpha = expf(m - mnew);
  const __m512 mb = _mm512_set1_ps(mnew);
  __m512 sum = _mm512_setzero_ps();
  for (int c = 0; c < BK; c += 16) {
    const __m512 e = exp512(_mm512_sub_ps(_mm512_loadu_ps(p + c), mb));
    _mm512_storeu_ps(p + c, e);
    sum = _mm512_add_ps(sum, e);
  }
  l = l * alpha + _mm512_reduce_add_ps(sum);
  m = mnew;
  if (alpha != 1.0f) {
    const __m512 ab = _mm512_set1_ps(alpha);
    for (int64_t d = 0; d < Dp; d += 16) _mm512_storeu_ps(orow + d, _mm512_mul_ps(ab, _mm512_loadu_ps(orow + d)));
  }
}

// One query head's S rows and the key/value head they read.
struct Head {
  const void *q, *k, *v;
  void* o;
  int64_t S, L, D, Dp;
  int64_t period;       // queries per head: row t is query t % period, at position L - period + t % period
  float scale;
  int64_t limit(int64_t t) const { return std::min(L, t % period + 1 + L - period); }  // keys j < limit are seen
};

// Keys transposed into blocks of BK (Kt[block][d][c], zero past L); values as fp32 rows padded to Dp (the input
// itself when it is fp32 and D a multiple of 16).
template <int DT> const float* pack(const Head& h, Scratch& s) {
  const int64_t nb = (h.L + BK - 1) / BK;
  s.kt.assign(nb * h.D * BK, 0.0f);
  for (int64_t j = 0; j < h.L; ++j)
    for (int64_t d = 0; d < h.D; d += 16) {
      float t[16];
      _mm512_storeu_ps(t, ld16<DT>(h.k, j * h.D + d, (int)std::min<int64_t>(16, h.D - d)));
      for (int64_t e = 0; e < std::min<int64_t>(16, h.D - d); ++e) s.kt[((j / BK) * h.D + d + e) * BK + j % BK] = t[e];
    }
  if (DT == KOPE_F32 && h.D == h.Dp) return static_cast<const float*>(h.v);
  s.vp.resize(h.L * h.Dp);
  for (int64_t j = 0; j < h.L; ++j)
    for (int64_t d = 0; d < h.Dp; d += 16)
      _mm512_storeu_ps(&s.vp[j * h.Dp + d], ld16<DT>(h.v, j * h.D + d, (int)std::max<int64_t>(0, std::min<int64_t>(16, h.D - d))));
  return s.vp.data();
}

template <int R> void block_rows(Scratch& s, const Head& h, const float* vp, int64_t i0, int r0, int64_t j0, int nj) {
  scores<R>(&s.q[r0 * h.D], h.D, &s.kt[(j0 / BK) * h.D * BK], &s.p[r0 * BK]);
  for (int r = r0; r < r0 + R; ++r) {
    const int64_t lim = h.limit(i0 + r);
    for (int64_t j = std::max<int64_t>(0, lim - j0); j < BK; ++j) s.p[r * BK + j] = -INFINITY;
    online_softmax(&s.p[r * BK], s.m[r], s.l[r], &s.o[r * h.Dp], h.Dp);
  }
  pv_rows<R>(&s.p[r0 * BK], vp + j0 * h.Dp, h.Dp, nj, &s.o[r0 * h.Dp]);
}

template <int DT> void blocked(const Head& h, Scratch& s) {
  const float* vp = pack<DT>(h, s);
  s.q.resize(BQ * h.D);
  s.p.resize(BQ * BK);
  s.o.resize(BQ * h.Dp);
  s.m.resize(BQ);
  s.l.resize(BQ);
  for (int64_t i0 = 0; i0 < h.S; i0 += BQ) {
    const int nq = (int)std::min<int64_t>(BQ, h.S - i0);
    for (int r = 0; r < nq; ++r)
      for (int64_t d = 0; d < h.D; d += 16) {
        float t[16];
        _mm512_storeu_ps(t, _mm512_mul_ps(_mm512_set1_ps(h.scale), ld16<DT>(h.q, (i0 + r) * h.D + d, (int)std::min<int64_t>(16, h.D - d))));
        std::copy(t, t + std::min<int64_t>(16, h.D - d), &s.q[r * h.D + d]);
      }
    std::fill(s.o.begin(), s.o.end(), 0.0f);
    std::fill(s.m.begin(), s.m.end(), -INFINITY);
    std::fill(s.l.begin(), s.l.end(), 0.0f);
    int64_t jend = 0;
    for (int r = 0; r < nq; ++r) jend = std::max(jend, h.limit(i0 + r));
    for (int64_t j0 = 0; j0 < jend; j0 += BK) {
      const int nj = (int)std::min<int64_t>(BK, jend - j0);
      int r0 = 0;
      for (; r0 + 4 <= nq; r0 += 4) block_rows<4>(s, h, vp, i0, r0, j0, nj);
      switch (nq - r0) {
        case 3: block_rows<3>(s, h, vp, i0, r0, j0, nj); break;
        case 2: block_rows<2>(s, h, vp, i0, r0, j0, nj); break;
        case 1: block_rows<1>(s, h, vp, i0, r0, j0, nj); break;
        default: break;
      }
    }
    for (int r = 0; r < nq; ++r)
      for (int64_t d = 0; d < h.D; ++d) st1<DT>(h.o, (i0 + r) * h.D + d, s.o[r * h.Dp + d] / s.l[r]);
  }
}

// A head with few queries (decode): packing would cost as much as the work, so each query reads K and V rows in
// place, four keys at a time, with a two-pass softmax over its whole score row.
template <int DT> void rows(const Head& h, Scratch& s) {
  s.sc.resize(h.L);
  s.q.resize(h.Dp);
  s.o.resize(h.Dp);
  for (int64_t i = 0; i < h.S; ++i) {
    const int64_t n = h.limit(i);
    for (int64_t d = 0; d < h.Dp; d += 16)
      _mm512_storeu_ps(&s.q[d], _mm512_mul_ps(_mm512_set1_ps(h.scale),
                                             ld16<DT>(h.q, i * h.D + d, (int)std::max<int64_t>(0, std::min<int64_t>(16, h.D - d)))));
    int64_t j = 0;
    for (; j + 4 <= n; j += 4) {
      __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
      for (int64_t d = 0; d < h.D; d += 16) {
        const int w = (int)std::min<int64_t>(16, h.D - d);
        const __m512 qv = _mm512_loadu_ps(&s.q[d]);
        a0 = _mm512_fmadd_ps(qv, ld16<DT>(h.k, j * h.D + d, w), a0);
        a1 = _mm512_fmadd_ps(qv, ld16<DT>(h.k, (j + 1) * h.D + d, w), a1);
        a2 = _mm512_fmadd_ps(qv, ld16<DT>(h.k, (j + 2) * h.D + d, w), a2);
        a3 = _mm512_fmadd_ps(qv, ld16<DT>(h.k, (j + 3) * h.D + d, w), a3);
      }
      s.sc[j] = _mm512_reduce_add_ps(a0);
      s.sc[j + 1] = _mm512_reduce_add_ps(a1);
      s.sc[j + 2] = _mm512_reduce_add_ps(a2);
      s.sc[j + 3] = _mm512_reduce_add_ps(a3);
    }
    for (; j < n; ++j) {
      __m512 a0 = _mm512_setzero_ps();
      for (int64_t d = 0; d < h.D; d += 16)
        a0 = _mm512_fmadd_ps(_mm512_loadu_ps(&s.q[d]), ld16<DT>(h.k, j * h.D + d, (int)std::min<int64_t>(16, h.D - d)), a0);
      s.sc[j] = _mm512_reduce_add_ps(a0);
    }
    float m = -INFINITY;
    bool nan = false;
    for (int64_t t = 0; t < n; ++t) {
      nan |= s.sc[t] != s.sc[t];
      m = std::max(m, s.sc[t]);
    }
    if (nan) m = NAN;
    float l = 0.0f;
    for (int64_t t = 0; t < n; ++t) l += (s.sc[t] = expf(s.sc[t] - m));
    std::fill(s.o.begin(), s.o.end(), 0.0f);
    for (int64_t t = 0; t < n; ++t) {
      const __m512 pb = _mm512_set1_ps(s.sc[t]);
      for (int64_t d = 0; d < h.D; d += 16)
        _mm512_storeu_ps(&s.o[d], _mm512_fmadd_ps(pb, ld16<DT>(h.v, t * h.D + d, (int)std::min<int64_t>(16, h.D - d)), _mm512_loadu_ps(&s.o[d])));
    }
    for (int64_t d = 0; d < h.D; ++d) st1<DT>(h.o, i * h.D + d, s.o[d] / l);
  }
}

template <int DT> int run(const kope_args* a) {
  const kope_tensor &q = a->inputs[0], &k = a->inputs[1], &v = a->inputs[2], &o = a->outputs[0];
  const int64_t B = q.shape[0], H = q.shape[1], S = q.shape[2], D = q.shape[3], HKV = k.shape[1], L = k.shape[2];
  const int64_t es = DT == KOPE_F32 ? 4 : 2, G = H / HKV;
  static Scratch s;
  (void)G;
  for (int64_t bh = 0; bh < B * H; ++bh) {
    const int64_t kv = (bh / H) * HKV + (bh % H) % HKV;
    Head h{static_cast<const char*>(q.data) + bh * S * D * es, static_cast<const char*>(k.data) + kv * L * D * es,
           static_cast<const char*>(v.data) + kv * L * D * es, static_cast<char*>(o.data) + bh * S * D * es,
           S, L, D, (D + 15) / 16 * 16, S, 1.0f / std::sqrt((float)D)};
    if (S < 4) rows<DT>(h, s);
    else blocked<DT>(h, s);
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
