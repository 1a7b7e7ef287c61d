// thought: the lightning indexer only returns keys the query may see, so the index list needs no causal check: drop the -1 padding, gather the selected latent rows once per query position into transposed key blocks of 64 and fp32 value rows, then run all H heads against them as one flash attention with an online softmax and 4x64 AVX-512 register tiles; a query with no valid key writes 0; bf16 caches go through AVX512-BF16 dot products on word-packed gathered keys, key-pair-packed values and bf16-rounded probabilities
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math
#include "kope_kernel.h"
#include <immintrin.h>
#include <stdlib.h>
#include <algorithm>
#include <cmath>
#include <cstring>
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
  std::vector<int64_t> keys;
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

// One query position: its H head rows, the latent cache and rope keys of its batch, its valid selected keys.
struct Query {
  const void *q, *qr, *kv, *kr;
  void* o;
  int64_t H, C, R, Dk, Cp, n;  // Dk = C + R, Cp = C rounded up to 16, n = the number of valid selected keys
  const int64_t* keys;
  float scale;
};

// The selected keys transposed into blocks of BK (Kt[block][d][c]: d < C from kv, d >= C from k_rope, zero past
// n), and their values as fp32 rows padded to Cp: the gather happens once for all H heads.
template <int DT> void gather(const Query& h, Scratch& s) {
  const int64_t nb = (h.n + BK - 1) / BK;
  s.kt.assign(nb * h.Dk * BK, 0.0f);
  s.vp.resize(h.n * h.Cp);
  float t[16];
  for (int64_t c = 0; c < h.n; ++c) {
    const int64_t j = h.keys[c];
    float* col = &s.kt[(c / BK) * h.Dk * BK + c % BK];
    for (int64_t d = 0; d < h.Cp; d += 16) {
      const int w = (int)std::max<int64_t>(0, std::min<int64_t>(16, h.C - d));
      const __m512 v = ld16<DT>(h.kv, j * h.C + d, w);
      _mm512_storeu_ps(&s.vp[c * h.Cp + d], v);
      _mm512_storeu_ps(t, v);
      for (int e = 0; e < w; ++e) col[(d + e) * BK] = t[e];
    }
    for (int64_t d = 0; d < h.R; d += 16) {
      const int w = (int)std::min<int64_t>(16, h.R - d);
      _mm512_storeu_ps(t, ld16<DT>(h.kr, j * h.R + d, w));
      for (int e = 0; e < w; ++e) col[(h.C + d + e) * BK] = t[e];
    }
  }
}

template <int R> void block_rows(Scratch& s, const Query& h, int r0, int64_t j0, int nj) {
  scores<R>(&s.q[r0 * h.Dk], h.Dk, &s.kt[(j0 / BK) * h.Dk * BK], &s.p[r0 * BK]);
  for (int r = r0; r < r0 + R; ++r) {
    for (int j = nj; j < BK; ++j) s.p[r * BK + j] = -INFINITY;
    online_softmax(&s.p[r * BK], s.m[r], s.l[r], &s.o[r * h.Cp], h.Cp);
  }
  pv_rows<R>(&s.p[r0 * BK], s.vp.data() + j0 * h.Cp, h.Cp, nj, &s.o[r0 * h.Cp]);
}

// One block of head rows, scaled, as [q | q_rope] rows of width Dk.
template <int DT> void load_queries(const Query& h, Scratch& s, int64_t i0, int nq) {
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

// ---- bf16 inputs: AVX512-BF16 dot products, two products a lane per instruction, fp32 sums ----
// Keys packed as 32-bit words of (d, d + 1) pairs, Kb[(block Dk2 + pair) BK + c]; values as words of key pairs
// (j, j + 1) per column, Vb[(block BK/2 + j/2) Cp + d]; the low half of a word is the even element, as
// vdpbf16ps pairs them. Queries stay unscaled bf16 (exact); the scale multiplies the fp32 scores, and the
// probabilities are rounded to bf16 for the P.V products (2^-9 each, far inside bf16's output threshold).
struct ScratchB {
  std::vector<uint32_t> kb, vb, qb, pb;
  std::vector<float> p, o, m, l;
  std::vector<uint16_t> row;
};

inline uint32_t word_at(const uint16_t* v, int64_t p) {
  uint32_t w;
  std::memcpy(&w, v + 2 * p, 4);
  return w;
}

// The selected keys gathered: Kb from [kv | k_rope] rows, Vb from pairs of selected kv rows. Sixteen keys at a
// time are staged as bf16 rows (padded to whole 16-word chunks), then each word position is one 16-lane gather
// from the staged rows and one full-vector store into Kb; value rows pair up by a 16-bit interleave.
void gather_bf16(const Query& h, ScratchB& s) {
  const int64_t nb = (h.n + BK - 1) / BK, Dk2 = (h.Dk + 1) / 2, W = (Dk2 + 15) / 16 * 16;
  s.kb.assign(nb * Dk2 * BK, 0u);
  s.vb.assign(nb * (BK / 2) * h.Cp, 0u);
  s.row.assign(16 * W * 2, 0);
  const __m512i rows = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                          _mm512_set1_epi32((int)W));
  for (int64_t c0 = 0; c0 < h.n; c0 += 16) {
    const int m = (int)std::min<int64_t>(16, h.n - c0);
    for (int i = 0; i < m; ++i) {
      const uint16_t *kv = static_cast<const uint16_t*>(h.kv) + h.keys[c0 + i] * h.C;
      const uint16_t *kr = static_cast<const uint16_t*>(h.kr) + h.keys[c0 + i] * h.R;
      std::memcpy(&s.row[i * W * 2], kv, h.C * 2);
      std::memcpy(&s.row[i * W * 2 + h.C], kr, h.R * 2);
    }
    const __mmask16 lanes = m >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << m) - 1);
    uint32_t* dst = &s.kb[(c0 / BK) * Dk2 * BK + c0 % BK];
    const int* base = reinterpret_cast<const int*>(s.row.data());
    for (int64_t p = 0; p < Dk2; ++p)
      _mm512_mask_storeu_epi32(dst + p * BK, lanes, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), lanes, rows, base + p, 4));
  }
  alignas(64) uint16_t lo_idx[32], hi_idx[32];
  for (int i = 0; i < 16; ++i) {
    lo_idx[2 * i] = (uint16_t)i, lo_idx[2 * i + 1] = (uint16_t)(32 + i);
    hi_idx[2 * i] = (uint16_t)(16 + i), hi_idx[2 * i + 1] = (uint16_t)(48 + i);
  }
  const __m512i lo = _mm512_load_si512(lo_idx), hi = _mm512_load_si512(hi_idx);
  const uint16_t* kv = static_cast<const uint16_t*>(h.kv);
  for (int64_t c = 0; c < h.n; c += 2) {
    const uint16_t *a = kv + h.keys[c] * h.C, *b = c + 1 < h.n ? kv + h.keys[c + 1] * h.C : nullptr;
    uint32_t* dst = &s.vb[((c / BK) * (BK / 2) + (c % BK) / 2) * h.Cp];
    for (int64_t d = 0; d < h.C; d += 32) {
      const int n = (int)std::min<int64_t>(32, h.C - d);
      const __mmask32 mk = n >= 32 ? (__mmask32)0xffffffffu : (__mmask32)((1u << n) - 1);
      const __m512i va = _mm512_maskz_loadu_epi16(mk, a + d), vb = b ? _mm512_maskz_loadu_epi16(mk, b + d) : _mm512_setzero_si512();
      const int n0 = std::min(16, n), n1 = std::max(0, n - 16);
      _mm512_mask_storeu_epi32(dst + d, n0 >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n0) - 1), _mm512_permutex2var_epi16(va, lo, vb));
      _mm512_mask_storeu_epi32(dst + d + 16, n1 >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n1) - 1), _mm512_permutex2var_epi16(va, hi, vb));
    }
  }
}

template <int R> inline void scores_bf16(const uint32_t* q, int64_t Dk2, const uint32_t* kb, float scale, float* p) {
  __m512 acc[R][4];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) acc[r][c] = _mm512_setzero_ps();
  for (int64_t d = 0; d < Dk2; ++d) {
    const uint32_t* k = kb + d * BK;
    const __m512bh k0 = (__m512bh)_mm512_loadu_si512(k), k1 = (__m512bh)_mm512_loadu_si512(k + 16);
    const __m512bh k2 = (__m512bh)_mm512_loadu_si512(k + 32), k3 = (__m512bh)_mm512_loadu_si512(k + 48);
    for (int r = 0; r < R; ++r) {
      const __m512bh qv = (__m512bh)_mm512_set1_epi32((int)q[r * Dk2 + d]);
      acc[r][0] = _mm512_dpbf16_ps(acc[r][0], qv, k0);
      acc[r][1] = _mm512_dpbf16_ps(acc[r][1], qv, k1);
      acc[r][2] = _mm512_dpbf16_ps(acc[r][2], qv, k2);
      acc[r][3] = _mm512_dpbf16_ps(acc[r][3], qv, k3);
    }
  }
  const __m512 sc = _mm512_set1_ps(scale);
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < 4; ++c) _mm512_storeu_ps(p + r * BK + c * 16, _mm512_mul_ps(acc[r][c], sc));
}

template <int R, int NV> inline void pv_bf16(const uint32_t* pb, const uint32_t* vb, int64_t Cp, int njp, float* o, int64_t dc) {
  __m512 acc[R][NV];
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_loadu_ps(o + r * Cp + dc + c * 16);
  for (int jp = 0; jp < njp; ++jp) {
    __m512bh vv[NV];
    for (int c = 0; c < NV; ++c) vv[c] = (__m512bh)_mm512_loadu_si512(vb + jp * Cp + dc + c * 16);
    for (int r = 0; r < R; ++r) {
      const __m512bh pw = (__m512bh)_mm512_set1_epi32((int)pb[r * (BK / 2) + jp]);
      for (int c = 0; c < NV; ++c) acc[r][c] = _mm512_dpbf16_ps(acc[r][c], pw, vv[c]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int c = 0; c < NV; ++c) _mm512_storeu_ps(o + r * Cp + dc + c * 16, acc[r][c]);
}

template <int R> void pv_rows_bf16(const uint32_t* pb, const uint32_t* vb, int64_t Cp, int njp, float* o) {
  for (int64_t dc = 0; dc < Cp; dc += 64) {
    switch ((int)std::min<int64_t>(4, (Cp - dc) / 16)) {
      case 4: pv_bf16<R, 4>(pb, vb, Cp, njp, o, dc); break;
      case 3: pv_bf16<R, 3>(pb, vb, Cp, njp, o, dc); break;
      case 2: pv_bf16<R, 2>(pb, vb, Cp, njp, o, dc); break;
      default: pv_bf16<R, 1>(pb, vb, Cp, njp, o, dc); break;
    }
  }
}

template <int R> void block_rows_bf16(ScratchB& s, const Query& h, int r0, int64_t j0, int nj) {
  const int64_t Dk2 = (h.Dk + 1) / 2;
  scores_bf16<R>(&s.qb[r0 * Dk2], Dk2, &s.kb[(j0 / BK) * Dk2 * BK], h.scale, &s.p[r0 * BK]);
  for (int r = r0; r < r0 + R; ++r) {
    float* p = &s.p[r * BK];
    for (int j = nj; j < BK; ++j) p[j] = -INFINITY;
    online_softmax(p, s.m[r], s.l[r], &s.o[r * h.Cp], h.Cp);
    for (int c = 0; c < BK; c += 32)
      _mm512_storeu_si512(&s.pb[r * (BK / 2) + c / 2],
                          (__m512i)_mm512_cvtne2ps_pbh(_mm512_loadu_ps(p + c + 16), _mm512_loadu_ps(p + c)));
  }
  pv_rows_bf16<R>(&s.pb[r0 * (BK / 2)], &s.vb[(j0 / BK) * (BK / 2) * h.Cp], h.Cp, (nj + 1) / 2, &s.o[r0 * h.Cp]);
}

// All H heads of one query position over its gathered keys (n > 0).
void query_bf16(const Query& h, ScratchB& s) {
  gather_bf16(h, s);
  const int64_t Dk2 = (h.Dk + 1) / 2;
  s.qb.resize(BQ * Dk2);
  s.pb.resize(BQ * BK / 2);
  s.p.resize(BQ * BK);
  s.o.resize(BQ * h.Cp);
  s.m.resize(BQ);
  s.l.resize(BQ);
  for (int64_t i0 = 0; i0 < h.H; i0 += BQ) {
    const int nq = (int)std::min<int64_t>(BQ, h.H - i0);
    for (int r = 0; r < nq; ++r) {  // [q | q_rope] of the head as bf16 pairs, unscaled
      const uint16_t *q = static_cast<const uint16_t*>(h.q) + (i0 + r) * h.C, *qr = static_cast<const uint16_t*>(h.qr) + (i0 + r) * h.R;
      std::copy(q, q + h.C, s.row.begin());
      std::copy(qr, qr + h.R, s.row.begin() + h.C);
      for (int64_t p = 0; p < Dk2; ++p) s.qb[r * Dk2 + p] = word_at(s.row.data(), p);
    }
    std::fill(s.o.begin(), s.o.end(), 0.0f);
    std::fill(s.m.begin(), s.m.end(), -INFINITY);
    std::fill(s.l.begin(), s.l.end(), 0.0f);
    for (int64_t j0 = 0; j0 < h.n; j0 += BK) {
      const int nj = (int)std::min<int64_t>(BK, h.n - j0);
      int r0 = 0;
      for (; r0 + 4 <= nq; r0 += 4) block_rows_bf16<4>(s, h, r0, j0, nj);
      switch (nq - r0) {
        case 3: block_rows_bf16<3>(s, h, r0, j0, nj); break;
        case 2: block_rows_bf16<2>(s, h, r0, j0, nj); break;
        case 1: block_rows_bf16<1>(s, h, r0, j0, nj); break;
        default: break;
      }
    }
    for (int r = 0; r < nq; ++r)
      for (int64_t d = 0; d < h.C; ++d) st1<KOPE_BF16>(h.o, (i0 + r) * h.C + d, s.o[r * h.Cp + d] / s.l[r]);
  }
}

template <int DT> void query(const Query& h, Scratch& s) {
  if (h.n == 0) {  // nothing to attend to: 0, as CANN writes it, rather than 0/0
    for (int64_t e = 0; e < h.H * h.C; ++e) st1<DT>(h.o, e, 0.0f);
    return;
  }
  if constexpr (DT == KOPE_BF16) {
    static ScratchB sb;
    return query_bf16(h, sb);
  }
  gather<DT>(h, s);
  s.q.resize(BQ * h.Dk);
  s.p.resize(BQ * BK);
  s.o.resize(BQ * h.Cp);
  s.m.resize(BQ);
  s.l.resize(BQ);
  for (int64_t i0 = 0; i0 < h.H; i0 += BQ) {
    const int nq = (int)std::min<int64_t>(BQ, h.H - i0);
    load_queries<DT>(h, s, i0, nq);
    std::fill(s.o.begin(), s.o.end(), 0.0f);
    std::fill(s.m.begin(), s.m.end(), -INFINITY);
    std::fill(s.l.begin(), s.l.end(), 0.0f);
    for (int64_t j0 = 0; j0 < h.n; j0 += BK) {
      const int nj = (int)std::min<int64_t>(BK, h.n - j0);
      int r0 = 0;
      for (; r0 + 4 <= nq; r0 += 4) block_rows<4>(s, h, r0, j0, nj);
      switch (nq - r0) {
        case 3: block_rows<3>(s, h, r0, j0, nj); break;
        case 2: block_rows<2>(s, h, r0, j0, nj); break;
        case 1: block_rows<1>(s, h, r0, j0, nj); break;
        default: break;
      }
    }
    for (int r = 0; r < nq; ++r)
      for (int64_t d = 0; d < h.C; ++d) st1<DT>(h.o, (i0 + r) * h.C + d, s.o[r * h.Cp + d] / s.l[r]);
  }
}

template <int DT> int run(const kope_args* a) {
  const kope_tensor &q = a->inputs[0], &qr = a->inputs[1], &kv = a->inputs[2], &kr = a->inputs[3], &ix = a->inputs[4];
  const int64_t B = q.shape[0], S = q.shape[1], H = q.shape[2], C = q.shape[3], R = qr.shape[3], L = kv.shape[1];
  const int64_t K = ix.shape[2], es = DT == KOPE_F32 ? 4 : 2;
  const float scale = (float)kope_attr_or(a, "scale", 0.07216878364870322);
  const int32_t* idx = static_cast<const int32_t*>(ix.data);
  static Scratch s;
  s.keys.resize(K);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t sq = 0; sq < S; ++sq) {
      const int64_t lim = L - 1, row = (b * S + sq) * H;
      int64_t n = 0;
      for (int64_t k = 0; k < K; ++k) {
        const int64_t j = idx[(b * S + sq) * K + k];
        if (j < -1 || j >= L) return 2;
        if (j >= 0 && j <= lim) s.keys[n++] = j;
      }
      Query h{static_cast<const char*>(q.data) + row * C * es, static_cast<const char*>(qr.data) + row * R * es,
              static_cast<const char*>(kv.data) + b * L * C * es, static_cast<const char*>(kr.data) + b * L * R * es,
              static_cast<char*>(a->outputs[0].data) + row * C * es, H, C, R, C + R, (C + 15) / 16 * 16, n,
              s.keys.data(), scale};
      query<DT>(h, s);
    }
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  if (a->inputs[4].dtype != KOPE_I32) return 7;
  switch (a->inputs[0].dtype) {
    case KOPE_F32: return run<KOPE_F32>(a);
    case KOPE_F16: return run<KOPE_F16>(a);
    case KOPE_BF16: return run<KOPE_BF16>(a);
    default: return 7;
  }
}
