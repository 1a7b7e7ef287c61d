// thought: the matmul is int8 x int8, so AVX-512 VNNI's vpdpbusd does it exactly in int32 (x flipped to u8 by + 128, taken back as 128 * column sums); per expert pack its weights once into 32-column panels of k-quads with a byte-interleave transpose, run 8 x 32 register tiles over the whole K into a dequantised fp32 block of the group's rows, then per row the fp32 steps of the definition in 16-lane vectors: SiLU with e^-l from an 8-lane double-precision exp rounded to fp32 (so it is the correctly rounded value the golden uses), the row max, a true division and round-half-even
// kope:cxxflags -O3 -march=native
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kope_kernel.h"

namespace {

constexpr int64_t MR = 8, NR = 32;

// weight[g] [K, N] as panels of NR columns: panel p, quad q holds w[4q + j][p NR + c] at ((p K4 + q) NR + c) 4 + j;
// full 4 x 32 blocks by a byte interleave, the edges element by element (zero past K and N).
void pack_b(const int8_t* b, int64_t K, int64_t N, int64_t K4, int8_t* out) {
  const int64_t P = (N + NR - 1) / NR;
  for (int64_t p = 0; p < P; ++p)
    for (int64_t q = 0; q < K4; ++q) {
      int8_t* o = out + ((p * K4 + q) * NR) * 4;
      if (4 * q + 3 < K && (p + 1) * NR <= N) {
        const int8_t* s = b + 4 * q * N + p * NR;
        const __m256i r0 = _mm256_loadu_si256((const __m256i*)s), r1 = _mm256_loadu_si256((const __m256i*)(s + N));
        const __m256i r2 = _mm256_loadu_si256((const __m256i*)(s + 2 * N)), r3 = _mm256_loadu_si256((const __m256i*)(s + 3 * N));
        const __m256i a = _mm256_unpacklo_epi8(r0, r1), bb = _mm256_unpackhi_epi8(r0, r1);
        const __m256i c = _mm256_unpacklo_epi8(r2, r3), d = _mm256_unpackhi_epi8(r2, r3);
        const __m256i e0 = _mm256_unpacklo_epi16(a, c), e1 = _mm256_unpackhi_epi16(a, c);
        const __m256i e2 = _mm256_unpacklo_epi16(bb, d), e3 = _mm256_unpackhi_epi16(bb, d);
        _mm256_storeu_si256((__m256i*)o, _mm256_permute2x128_si256(e0, e1, 0x20));
        _mm256_storeu_si256((__m256i*)(o + 32), _mm256_permute2x128_si256(e2, e3, 0x20));
        _mm256_storeu_si256((__m256i*)(o + 64), _mm256_permute2x128_si256(e0, e1, 0x31));
        _mm256_storeu_si256((__m256i*)(o + 96), _mm256_permute2x128_si256(e2, e3, 0x31));
        continue;
      }
      for (int64_t c = 0; c < NR; ++c)
        for (int64_t j = 0; j < 4; ++j) {
          const int64_t k = 4 * q + j, n = p * NR + c;
          o[c * 4 + j] = k < K && n < N ? b[k * N + n] : 0;
        }
    }
}

// The column sums of a packed panel set (vpdpbusd of the packed bytes with ones).
void column_sums(const int8_t* bp, int64_t K4, int64_t P, int32_t* colsum) {
  const __m512i ones = _mm512_set1_epi8(1);
  for (int64_t p = 0; p < P; ++p) {
    __m512i s0 = _mm512_setzero_si512(), s1 = s0;
    for (int64_t q = 0; q < K4; ++q) {
      s0 = _mm512_dpbusd_epi32(s0, ones, _mm512_loadu_si512(bp + (p * K4 + q) * NR * 4));
      s1 = _mm512_dpbusd_epi32(s1, ones, _mm512_loadu_si512(bp + (p * K4 + q) * NR * 4 + 64));
    }
    _mm512_storeu_si512(colsum + p * NR, s0);
    _mm512_storeu_si512(colsum + p * NR + 16, s1);
  }
}

// Rows [m0, m0 + MR) of x as u8 quads (x ^ 0x80 = x + 128), quad q of row r at q MR + r; rows past m1 and k past K
// are s8 0 (u8 128), whose share the column-sum correction takes back.
void pack_a(const int8_t* a, int64_t K, int64_t K4, int64_t m0, int64_t m1, uint32_t* out) {
  for (int64_t r = 0; r < MR; ++r) {
    const int64_t m = m0 + r;
    for (int64_t q = 0; q < K4; ++q) {
      uint32_t raw = 0;
      if (m < m1) {
        if (4 * q + 3 < K) memcpy(&raw, a + m * K + 4 * q, 4);
        else
          for (int64_t j = 0; 4 * q + j < K; ++j) raw |= (uint32_t)(uint8_t)a[m * K + 4 * q + j] << (8 * j);
      }
      out[q * MR + r] = raw ^ 0x80808080u;
    }
  }
}

// One 8 x 32 tile over the whole K, dequantised in the definition's order ((float)mm * x_scale) * w_scale into
// D (row stride Np).
void tile(const uint32_t* ap, const int8_t* bp, int64_t K4, int64_t rows, int64_t n0, const int32_t* colsum,
          const float* xs, const float* ws, float* D, int64_t Np) {
  __m512i c[MR][2];
  for (int64_t r = 0; r < MR; ++r) c[r][0] = c[r][1] = _mm512_setzero_si512();
  for (int64_t q = 0; q < K4; ++q) {
    const __m512i b0 = _mm512_loadu_si512(bp + q * NR * 4), b1 = _mm512_loadu_si512(bp + q * NR * 4 + 64);
    for (int64_t r = 0; r < MR; ++r) {
      const __m512i av = _mm512_set1_epi32((int32_t)ap[q * MR + r]);
      c[r][0] = _mm512_dpbusd_epi32(c[r][0], av, b0);
      c[r][1] = _mm512_dpbusd_epi32(c[r][1], av, b1);
    }
  }
  for (int64_t v = 0; v < 2; ++v) {
    const int64_t n = n0 + 16 * v;
    const __m512i fix = _mm512_slli_epi32(_mm512_loadu_si512(colsum + n), 7);
    const __m512 s = _mm512_loadu_ps(ws + n);
    for (int64_t r = 0; r < rows; ++r) {
      const __m512 f = _mm512_cvtepi32_ps(_mm512_sub_epi32(c[r][v], fix));
      _mm512_storeu_ps(D + r * Np + n, _mm512_mul_ps(_mm512_mul_ps(f, _mm512_set1_ps(xs[r])), s));
    }
  }
}

// e^x in double for 8 lanes: x = n ln2 + r, |r| <= ln2 / 2, a degree-12 Taylor polynomial (error below 2 ulp of
// a double), 2^n by scalef (inf past 709.8, 0 below -745).
inline __m512d exp_pd(__m512d x) {
  x = _mm512_min_pd(_mm512_max_pd(x, _mm512_set1_pd(-746.0)), _mm512_set1_pd(710.0));
  const __m512d n = _mm512_roundscale_pd(_mm512_mul_pd(x, _mm512_set1_pd(1.4426950408889634)), 0);
  __m512d r = _mm512_fnmadd_pd(n, _mm512_set1_pd(6.93147180369123816490e-01), x);
  r = _mm512_fnmadd_pd(n, _mm512_set1_pd(1.90821492927058770002e-10), r);
  static const double c[13] = {1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320,
                               1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600};
  __m512d p = _mm512_set1_pd(c[12]);
  for (int i = 11; i >= 0; --i) p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(c[i]));
  return _mm512_scalef_pd(p, n);
}

// e^-l rounded to fp32 for 16 lanes.
inline __m512 exp_neg_f32(__m512 l) {
  const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(l));
  const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(l), 1)));
  const __m256 elo = _mm512_cvtpd_ps(exp_pd(_mm512_sub_pd(_mm512_setzero_pd(), lo)));
  const __m256 ehi = _mm512_cvtpd_ps(exp_pd(_mm512_sub_pd(_mm512_setzero_pd(), hi)));
  return _mm512_insertf32x8(_mm512_castps256_ps512(elo), ehi, 1);
}

// One token: act = SiLU(left) * right in fp32, scale = max |act| / 127, y = rint(act / scale).
void quantise_row(const float* d, int64_t H, float* act, int8_t* y, float* scale_out) {
  __m512 amax = _mm512_setzero_ps();
  for (int64_t n = 0; n < H; n += 16) {
    const __mmask16 m = H - n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (H - n)) - 1);
    const __m512 l = _mm512_maskz_loadu_ps(m, d + n), r = _mm512_maskz_loadu_ps(m, d + H + n);
    const __m512 e = exp_neg_f32(l);
    const __m512 v = _mm512_mul_ps(_mm512_div_ps(l, _mm512_add_ps(_mm512_set1_ps(1.0f), e)), r);
    _mm512_mask_storeu_ps(act + n, m, v);
    amax = _mm512_max_ps(amax, _mm512_abs_ps(v));  // lanes past H are 0
  }
  const float scale = _mm512_reduce_max_ps(amax) / 127.0f;
  *scale_out = scale;
  const __m512 sb = _mm512_set1_ps(scale), lim = _mm512_set1_ps(127.0f);
  for (int64_t n = 0; n < H; n += 16) {
    const __mmask16 m = H - n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (H - n)) - 1);
    __m512 q = _mm512_roundscale_ps(_mm512_div_ps(_mm512_maskz_loadu_ps(m, act + n), sb), _MM_FROUND_TO_NEAREST_INT);
    q = scale == 0.0f ? _mm512_setzero_ps() : _mm512_min_ps(lim, _mm512_max_ps(_mm512_sub_ps(_mm512_setzero_ps(), lim), q));
    _mm512_mask_cvtsepi32_storeu_epi8(y + n, m, _mm512_cvtps_epi32(q));
  }
}

struct Scratch {
  std::vector<int8_t> bp;
  std::vector<int32_t> colsum;
  std::vector<uint32_t> ap;
  std::vector<float> d, act, ws;
};

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor &x = a->inputs[0], &w = a->inputs[1], &wscale = a->inputs[2], &xscale = a->inputs[3];
  if (x.dtype != KOPE_I8 || w.dtype != KOPE_I8 || wscale.dtype != KOPE_F32 || xscale.dtype != KOPE_F32 ||
      a->inputs[4].dtype != KOPE_I64)
    return 7;
  const int64_t M = x.shape[0], K = x.shape[1], E = w.shape[0], N = w.shape[2], H = N / 2;
  const int64_t K4 = (K + 3) / 4, P = (N + NR - 1) / NR, Np = P * NR;
  const int8_t *X = static_cast<const int8_t*>(x.data), *W = static_cast<const int8_t*>(w.data);
  const float *WS = static_cast<const float*>(wscale.data), *XS = static_cast<const float*>(xscale.data);
  const int64_t* groups = static_cast<const int64_t*>(a->inputs[4].data);
  int8_t* y = static_cast<int8_t*>(a->outputs[0].data);
  float* ys = static_cast<float*>(a->outputs[1].data);
  static Scratch s;
  s.bp.resize(P * K4 * NR * 4);
  s.colsum.resize(Np);
  s.act.resize(H + 16);
  s.ws.assign(Np, 0.0f);
  int64_t row = 0;
  for (int64_t g = 0; g < E; ++g) {
    const int64_t rows = groups[g];
    if (rows < 0 || row + rows > M) return 2;
    if (rows == 0) continue;
    pack_b(W + g * K * N, K, N, K4, s.bp.data());
    column_sums(s.bp.data(), K4, P, s.colsum.data());
    std::copy(WS + g * N, WS + (g + 1) * N, s.ws.begin());
    const int64_t MB = (rows + MR - 1) / MR;
    s.ap.resize(MB * K4 * MR);
    s.d.resize(MB * MR * Np);
    for (int64_t mb = 0; mb < MB; ++mb) pack_a(X, K, K4, row + mb * MR, row + rows, s.ap.data() + mb * K4 * MR);
    for (int64_t p = 0; p < P; ++p)  // a panel of weights stays in cache across all the group's row blocks
      for (int64_t mb = 0; mb < MB; ++mb)
        tile(s.ap.data() + mb * K4 * MR, s.bp.data() + p * K4 * NR * 4, K4, std::min(MR, rows - mb * MR), p * NR,
             s.colsum.data(), XS + row + mb * MR, s.ws.data(), s.d.data() + mb * MR * Np, Np);
    for (int64_t r = 0; r < rows; ++r) quantise_row(s.d.data() + r * Np, H, s.act.data(), y + (row + r) * H, ys + row + r);
    row += rows;
  }
  std::fill(y + row * H, y + M * H, 0);
  std::fill(ys + row, ys + M, 0.0f);
  return 0;
}
