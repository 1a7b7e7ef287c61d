// thought: a convolution is a matmul once the input is unfolded into a [Ci*KH*KW, OH*OW] matrix; pack the filter into 6-row panels as the convolution of the textbook has it, rotated by 180 degrees (w[co, ci, KH-1-kh, KW-1-kw] meets tap (kh, kw)), and run a 6x32 AVX-512 register tile over K blocks of 128 copied into contiguous 32-column strips
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <algorithm>
#include <cstring>
#include <vector>

namespace {

constexpr int kMR = 6;    // output channels per register tile (broadcast)
constexpr int kNR = 32;   // output pixels per register tile (two zmm)
constexpr int64_t kKC = 128;  // a 32-column strip of a K block: 16 KiB, half of L1
constexpr int64_t kColumns = 512;  // output pixels per block: 256 KiB of packed input, in L2

inline float ld(const kope_tensor& t, int64_t i) {
  switch (t.dtype) {
    case KOPE_F16: return _cvtsh_ss(static_cast<const uint16_t*>(t.data)[i]);
    case KOPE_BF16: return kope_bf16_to_f32(static_cast<const uint16_t*>(t.data)[i]);
    default: return static_cast<const float*>(t.data)[i];
  }
}

// n floats of t from element `from` into out.
void widen(const kope_tensor& t, int64_t from, int64_t n, float* out) {
  if (t.dtype == KOPE_F32) {
    std::memcpy(out, static_cast<const float*>(t.data) + from, sizeof(float) * n);
    return;
  }
  const uint16_t* s = static_cast<const uint16_t*>(t.data) + from;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
    _mm512_storeu_ps(out + i, t.dtype == KOPE_F16 ? _mm512_cvtph_ps(h)
                                                  : _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16)));
  }
  for (; i < n; ++i) out[i] = ld(t, from + i);
}

void narrow(const float* v, int64_t n, const kope_tensor& t, int64_t at) {
  uint16_t* d = static_cast<uint16_t*>(t.data) + at;
  if (t.dtype == KOPE_F16) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), _mm512_cvtps_ph(_mm512_loadu_ps(v + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i) d[i] = _cvtss_sh(v[i], 0);
  } else {
    for (int64_t i = 0; i < n; ++i) d[i] = kope_f32_to_bf16(v[i]);
  }
}

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// C[mr rows, 32 cols] += A-panel (kc x 6, k-major) * B[kc rows, 32 cols] (row stride ldb); columns past `nc` are masked.
void tile(int64_t kc, const float* __restrict ap, const float* __restrict b, int64_t ldb, float* __restrict c, int64_t ldc,
          int mr, int64_t nc) {
  const __mmask16 m0 = tail_mask(nc), m1 = tail_mask(nc - 16);
  __m512 acc[kMR][2];
  for (int r = 0; r < kMR; ++r)
    for (int h = 0; h < 2; ++h)
      acc[r][h] = r < mr ? _mm512_maskz_loadu_ps(h ? m1 : m0, c + r * ldc + 16 * h) : _mm512_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const __m512 b0 = _mm512_maskz_loadu_ps(m0, b + k * ldb), b1 = _mm512_maskz_loadu_ps(m1, b + k * ldb + 16);
    const float* a = ap + k * kMR;
#pragma GCC unroll 6
    for (int r = 0; r < kMR; ++r) {
      const __m512 av = _mm512_set1_ps(a[r]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < mr; ++r) {
    _mm512_mask_storeu_ps(c + r * ldc, m0, acc[r][0]);
    _mm512_mask_storeu_ps(c + r * ldc + 16, m1, acc[r][1]);
  }
}

struct Geometry {
  int64_t Ci, H, W, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw;
};

// Row k = (ci, kh, kw) of the unfolded input over output rows [oh0, oh1): the tap of each of those output pixels,
// zero where it falls in the padding.
void unfold_row(const Geometry& g, const float* x, int64_t k, int64_t oh0, int64_t oh1, float* o) {
  const int64_t kw = k % g.KW, kh = (k / g.KW) % g.KH, ci = k / (g.KW * g.KH);
  const int64_t off = kw * g.dw - g.pw;  // input column of output column ow is ow*sw + off
  // the output columns whose input column lies inside [0, W)
  const int64_t lo = off >= 0 ? 0 : std::min(g.OW, (-off + g.sw - 1) / g.sw);
  const int64_t hi = std::max(lo, std::min(g.OW, g.W - off <= 0 ? 0 : (g.W - off - 1) / g.sw + 1));
  for (int64_t oh = oh0; oh < oh1; ++oh, o += g.OW) {
    const int64_t h = oh * g.sh - g.ph + kh * g.dh;
    if (h < 0 || h >= g.H) {
      std::memset(o, 0, sizeof(float) * g.OW);
      continue;
    }
    const float* src = x + (ci * g.H + h) * g.W + off;
    for (int64_t ow = 0; ow < lo; ++ow) o[ow] = 0.0f;
    if (g.sw == 1) std::memcpy(o + lo, src + lo, sizeof(float) * (hi - lo));
    else
      for (int64_t ow = lo; ow < hi; ++ow) o[ow] = src[ow * g.sw];
    for (int64_t ow = hi; ow < g.OW; ++ow) o[ow] = 0.0f;
  }
}

// C [M, P] (row stride P, holding the bias) += packed A [M, K] * unfold(x) [K, P], a block of whole output rows
// (about kColumns pixels) at a time so that block's slice of C and of the packed input stay in L2 across the K
// blocks. Each K block of the unfolded input is written row by row (one L1-sized row at a time, never the whole
// matrix) into contiguous 32-column strips, so a tile walks 16 KiB in order; every output-channel panel then
// passes over a strip while it is in L1.
void conv_gemm(const Geometry& g, int64_t M, const float* ap, const float* x, float* c, std::vector<float>& bp,
               std::vector<float>& row) {
  const int64_t K = g.Ci * g.KH * g.KW, P = g.OH * g.OW;
  const bool pointwise = g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0;
  const int64_t rows = std::max<int64_t>(1, kColumns / g.OW), most = std::min(g.OH, rows) * g.OW;
  bp.resize(((most + kNR - 1) / kNR) * kKC * kNR);
  row.resize(most);
  for (int64_t oh0 = 0; oh0 < g.OH; oh0 += rows) {
    const int64_t oh1 = std::min(g.OH, oh0 + rows), p0 = oh0 * g.OW, n = (oh1 - oh0) * g.OW;
    const int64_t strips = (n + kNR - 1) / kNR;
    for (int64_t k0 = 0; k0 < K; k0 += kKC) {
      const int64_t kc = std::min(kKC, K - k0);
      for (int64_t k = 0; k < kc; ++k) {
        const float* r = x + (k0 + k) * P + p0;  // a 1x1 unit-stride filter: the input row is the unfolded row
        if (!pointwise) {
          unfold_row(g, x, k0 + k, oh0, oh1, row.data());
          r = row.data();
        }
        for (int64_t s = 0; s < strips; ++s) {
          const int64_t j0 = s * kNR, nc = std::min<int64_t>(kNR, n - j0);
          float* d = bp.data() + (s * kc + k) * kNR;
          _mm512_storeu_ps(d, _mm512_maskz_loadu_ps(tail_mask(nc), r + j0));
          _mm512_storeu_ps(d + 16, _mm512_maskz_loadu_ps(tail_mask(nc - 16), r + j0 + 16));
        }
      }
      for (int64_t s = 0; s < strips; ++s) {
        const int64_t j0 = s * kNR;
        for (int64_t i0 = 0; i0 < M; i0 += kMR)
          tile(kc, ap + (i0 / kMR) * K * kMR + k0 * kMR, bp.data() + s * kc * kNR, kNR, c + i0 * P + p0 + j0, P,
               (int)std::min<int64_t>(kMR, M - i0), std::min<int64_t>(kNR, n - j0));
      }
    }
  }
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& wt = a->inputs[1];
  const kope_tensor& b = a->inputs[2];
  const kope_tensor& y = a->outputs[0];
  Geometry g;
  const int64_t N = x.shape[0];
  g.Ci = x.shape[1], g.H = x.shape[2], g.W = x.shape[3];
  const int64_t Co = wt.shape[0];
  g.KH = wt.shape[2], g.KW = wt.shape[3], g.OH = y.shape[2], g.OW = y.shape[3];
  g.sh = (int64_t)kope_attr_or(a, "stride_h", 1), g.sw = (int64_t)kope_attr_or(a, "stride_w", 1);
  g.ph = (int64_t)kope_attr_or(a, "pad_h", 0), g.pw = (int64_t)kope_attr_or(a, "pad_w", 0);
  g.dh = (int64_t)kope_attr_or(a, "dil_h", 1), g.dw = (int64_t)kope_attr_or(a, "dil_w", 1);
  const int64_t K = g.Ci * g.KH * g.KW, P = g.OH * g.OW, plane = g.Ci * g.H * g.W;

  // Scratch kept across calls: a fresh multi-MiB vector per call costs more in page faults than the convolution.
  static thread_local std::vector<float> ap, bias, bp, row, xin, out;
  // The filter in 6-row panels, k-major, the rows past Co zero.
  const int64_t panels = (Co + kMR - 1) / kMR;
  ap.assign(panels * kMR * K, 0.0f);
  bias.resize(Co);
  widen(b, 0, Co, bias.data());
  row.resize(K);
  for (int64_t i = 0; i < Co; ++i) {
    widen(wt, i * K, K, row.data());
    float* d = ap.data() + (i / kMR) * K * kMR + i % kMR;
    const int64_t taps = g.KH * g.KW;
    for (int64_t k = 0; k < K; ++k) d[k * kMR] = row[k - k % taps + (taps - 1 - k % taps)];
  }
  xin.resize(x.dtype == KOPE_F32 ? 0 : plane);
  out.resize(y.dtype == KOPE_F32 ? 0 : Co * P);
  for (int64_t n = 0; n < N; ++n) {
    const float* xn = static_cast<const float*>(x.data) + n * plane;
    if (x.dtype != KOPE_F32) {
      widen(x, n * plane, plane, xin.data());
      xn = xin.data();
    }
    float* c = y.dtype == KOPE_F32 ? static_cast<float*>(y.data) + n * Co * P : out.data();
    for (int64_t i = 0; i < Co; ++i) std::fill(c + i * P, c + (i + 1) * P, bias[i]);
    conv_gemm(g, Co, ap.data(), xn, c, bp, row);
    if (y.dtype != KOPE_F32) narrow(c, Co * P, y, n * Co * P);
  }
  return 0;
}
