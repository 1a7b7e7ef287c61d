// thought: absorbed MLA is multi-query attention over one shared latent cache (keys = [ckv | k_rope], values = ckv) whose absorbed head is C + R = 576 wide, so the softmax scale is 1/sqrt(576) as for any head; every (query, head) row of a batch is a row of one flash attention: pack the cache once per batch, then per block of 64 rows stream key blocks with an online softmax and 4x64 AVX-512 register tiles
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <immintrin.h>
#include <stdlib.h>
#include <algorithm>
#include <cmath>
#include <vector>

namespace {

constexpr int BQ = 64, BK = 64;

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
  std::vector<float> kt, vp, q, p, o, m, l;
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

// One batch: its S * H query rows (row = s * H + h), its latent cache and rope keys.
struct Batch {
  const void *q, *qr, *ckv, *kr;
  void* o;
  int64_t S, H, L, C, R, Dk, Cp;  // Dk = C + R, the key width; Cp = C rounded up to 16
  bool causal;
  float scale;
};

// Keys transposed into blocks of BK (Kt[block][d][c]: d < C from ckv, d >= C from k_rope, zero past L); values
// as fp32 rows padded to Cp (the cache itself when it is fp32 and C a multiple of 16).
template <int DT> const float* pack(const Batch& h, Scratch& s) {
  const int64_t nb = (h.L + BK - 1) / BK;
  s.kt.assign(nb * h.Dk * BK, 0.0f);
  float t[16];
  for (int64_t j = 0; j < h.L; ++j) {
    float* col = &s.kt[(j / BK) * h.Dk * BK + j % BK];
    for (int64_t d = 0; d < h.C; d += 16) {
      const int w = (int)std::min<int64_t>(16, h.C - d);
      _mm512_storeu_ps(t, ld16<DT>(h.ckv, j * h.C + d, w));
      for (int e = 0; e < w; ++e) col[(d + e) * BK] = t[e];
    }
    for (int64_t d = 0; d < h.R; d += 16) {
      const int w = (int)std::min<int64_t>(16, h.R - d);
      _mm512_storeu_ps(t, ld16<DT>(h.kr, j * h.R + d, w));
      for (int e = 0; e < w; ++e) col[(h.C + d + e) * BK] = t[e];
    }
  }
  if (DT == KOPE_F32 && h.C == h.Cp) return static_cast<const float*>(h.ckv);
  s.vp.resize(h.L * h.Cp);
  for (int64_t j = 0; j < h.L; ++j)
    for (int64_t d = 0; d < h.Cp; d += 16)
      _mm512_storeu_ps(&s.vp[j * h.Cp + d], ld16<DT>(h.ckv, j * h.C + d, (int)std::max<int64_t>(0, std::min<int64_t>(16, h.C - d))));
  return s.vp.data();
}

// Keys j < this are seen by row i (query position i / H).
inline int64_t key_limit(const Batch& h, int64_t i) { return h.causal ? std::min(h.L, h.L - h.S + i / h.H + 1) : h.L; }

template <int R> void block_rows(Scratch& s, const Batch& h, const float* vp, int64_t i0, int r0, int64_t j0, int nj) {
  scores<R>(&s.q[r0 * h.Dk], h.Dk, &s.kt[(j0 / BK) * h.Dk * BK], &s.p[r0 * BK]);
  for (int r = r0; r < r0 + R; ++r) {
    const int64_t lim = key_limit(h, i0 + r);
    for (int64_t j = std::max<int64_t>(0, lim - j0); j < BK; ++j) s.p[r * BK + j] = -INFINITY;
    online_softmax(&s.p[r * BK], s.m[r], s.l[r], &s.o[r * h.Cp], h.Cp);
  }
  pv_rows<R>(&s.p[r0 * BK], vp + j0 * h.Cp, h.Cp, nj, &s.o[r0 * h.Cp]);
}

// One block of query rows, scaled, as [q | q_rope] rows of width Dk.
template <int DT> void load_queries(const Batch& h, Scratch& s, int64_t i0, int nq) {
  const __m512 sc = _mm512_set1_ps(h.scale);
  float t[16];
  for (int r = 0; r < nq; ++r) {
    for (int64_t d = 0; d < h.C; d += 16) {
      const int w = (int)std::min<int64_t>(16, h.C - d);
      _mm512_storeu_ps(t, _mm512_mul_ps(sc, ld16<DT>(h.q, (i0 + r) * h.C + d, w)));
      std::copy(t, t + w, &s.q[r * h.Dk + d]);
    }
    for (int64_t d = 0; d < h.R; d += 16) {
      const int w = (int)std::min<int64_t>(16, h.R - d);
      _mm512_storeu_ps(t, _mm512_mul_ps(sc, ld16<DT>(h.qr, (i0 + r) * h.R + d, w)));
      std::copy(t, t + w, &s.q[r * h.Dk + h.C + d]);
    }
  }
}

template <int DT> void batch(const Batch& h, Scratch& s) {
  const float* vp = pack<DT>(h, s);
  s.q.resize(BQ * h.Dk);
  s.p.resize(BQ * BK);
  s.o.resize(BQ * h.Cp);
  s.m.resize(BQ);
  s.l.resize(BQ);
  const int64_t rows = h.S * h.H;
  for (int64_t i0 = 0; i0 < rows; i0 += BQ) {
    const int nq = (int)std::min<int64_t>(BQ, rows - i0);
    load_queries<DT>(h, s, i0, nq);
    std::fill(s.o.begin(), s.o.end(), 0.0f);
    std::fill(s.m.begin(), s.m.end(), -INFINITY);
    std::fill(s.l.begin(), s.l.end(), 0.0f);
    const int64_t jend = key_limit(h, i0 + nq - 1);
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
      for (int64_t d = 0; d < h.C; ++d) st1<DT>(h.o, (i0 + r) * h.C + d, s.o[r * h.Cp + d] / s.l[r]);
  }
}

template <int DT> int run(const kope_args* a) {
  const kope_tensor &q = a->inputs[0], &qr = a->inputs[1], &ckv = a->inputs[2], &kr = a->inputs[3];
  const int64_t B = q.shape[0], S = q.shape[1], H = q.shape[2], C = q.shape[3], R = qr.shape[3], L = ckv.shape[1];
  const int64_t es = DT == KOPE_F32 ? 4 : 2;
  static Scratch s;
  for (int64_t b = 0; b < B; ++b) {
    const char *qb = static_cast<const char*>(q.data), *qrb = static_cast<const char*>(qr.data);
    const char *cb = static_cast<const char*>(ckv.data), *kb = static_cast<const char*>(kr.data);
    Batch h{qb + b * S * H * C * es, qrb + b * S * H * R * es, cb + b * L * C * es, kb + b * L * R * es,
            static_cast<char*>(a->outputs[0].data) + b * S * H * C * es, S, H, L, C, R, C + R, (C + 15) / 16 * 16,
            kope_attr_or(a, "causal", 0) != 0, 1.0f / std::sqrt((float)(C + R))};
    batch<DT>(h, s);
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
