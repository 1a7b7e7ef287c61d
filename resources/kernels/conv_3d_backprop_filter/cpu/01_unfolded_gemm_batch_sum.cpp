// thought: the filter gradient is a matmul with the batch and output positions as its reduction: grad_w^T [Ci*KD*KH*KW, Co] = sum over images of unfold(x) [taps, P] * grad_y^T [P, Co]; over blocks of whole output rows (about 128 positions), copy grad_y^T into contiguous 32-channel strips, unfold six taps at a time straight into a k-major panel, and run a 6x32 AVX-512 register tile accumulating in fp32 across the whole batch
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <algorithm>
#include <cstring>
#include <vector>

namespace {

constexpr int kMR = 6;   // taps per register tile (broadcast)
constexpr int kNR = 32;  // output channels per register tile (two zmm)
constexpr int64_t kRowsTarget = 128;  // output positions per reduction block: a 16 KiB strip of grad_y^T

inline float ld(const kope_tensor& t, int64_t i) {
  switch (t.dtype) {
    case KOPE_F16: return _cvtsh_ss(static_cast<const uint16_t*>(t.data)[i]);
    case KOPE_BF16: return kope_bf16_to_f32(static_cast<const uint16_t*>(t.data)[i]);
    default: return static_cast<const float*>(t.data)[i];
  }
}

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

inline void st(const kope_tensor& t, int64_t i, float v) {
  switch (t.dtype) {
    case KOPE_F16: static_cast<uint16_t*>(t.data)[i] = _cvtss_sh(v, 0); break;
    case KOPE_BF16: static_cast<uint16_t*>(t.data)[i] = kope_f32_to_bf16(v); break;
    default: static_cast<float*>(t.data)[i] = v;
  }
}

inline __mmask16 tail_mask(int64_t n) { return n >= 16 ? __mmask16(0xffff) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1); }

// C[mr rows, 32 cols] += A-panel (kc x 6, k-major) * B-strip (kc x 32, contiguous); columns past `nc` are masked.
void tile(int64_t kc, const float* __restrict ap, const float* __restrict b, float* __restrict c, int64_t ldc, int mr,
          int64_t nc) {
  const __mmask16 m0 = tail_mask(nc), m1 = tail_mask(nc - 16);
  __m512 acc[kMR][2];
  for (int r = 0; r < kMR; ++r)
    for (int h = 0; h < 2; ++h)
      acc[r][h] = r < mr ? _mm512_maskz_loadu_ps(h ? m1 : m0, c + r * ldc + 16 * h) : _mm512_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const __m512 b0 = _mm512_loadu_ps(b + k * kNR), b1 = _mm512_loadu_ps(b + k * kNR + 16);
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
  int64_t Ci, D, H, W, KD, KH, KW, OD, OH, OW, s[3], p[3], d[3];
};

// Tap k = (ci, kd, kh, kw) of output rows [r0, r1) (row = od*OH + oh) of one image x, written to ap[pos * kMR + lane].
void unfold_tap(const Geometry& g, const float* x, int64_t k, int64_t r0, int64_t r1, float* ap, int lane) {
  const int64_t kw = k % g.KW, kh = (k / g.KW) % g.KH, kd = (k / (g.KW * g.KH)) % g.KD, ci = k / (g.KW * g.KH * g.KD);
  const int64_t off = kw * g.d[2] - g.p[2];  // input column of output column ow is ow*sw + off
  const int64_t sw = g.s[2];
  const int64_t lo = off >= 0 ? 0 : std::min(g.OW, (-off + sw - 1) / sw);
  const int64_t hi = std::max(lo, std::min(g.OW, g.W - off <= 0 ? 0 : (g.W - off - 1) / sw + 1));
  for (int64_t r = r0; r < r1; ++r) {
    float* o = ap + (r - r0) * g.OW * kMR + lane;
    const int64_t od = r / g.OH, oh = r % g.OH;
    const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0], ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
    if (id < 0 || id >= g.D || ih < 0 || ih >= g.H) {
      for (int64_t ow = 0; ow < g.OW; ++ow) o[ow * kMR] = 0.0f;
      continue;
    }
    const float* src = x + ((ci * g.D + id) * g.H + ih) * g.W + off;
    for (int64_t ow = 0; ow < lo; ++ow) o[ow * kMR] = 0.0f;
    for (int64_t ow = lo; ow < hi; ++ow) o[ow * kMR] = src[ow * sw];
    for (int64_t ow = hi; ow < g.OW; ++ow) o[ow * kMR] = 0.0f;
  }
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& gy = a->inputs[1];
  const kope_tensor& gw = a->outputs[0];
  Geometry g;
  const int64_t N = x.shape[0];
  g.Ci = x.shape[1], g.D = x.shape[2], g.H = x.shape[3], g.W = x.shape[4];
  const int64_t Co = gy.shape[1];
  g.OD = gy.shape[2], g.OH = gy.shape[3], g.OW = gy.shape[4];
  g.KD = gw.shape[2], g.KH = gw.shape[3], g.KW = gw.shape[4];
  const char* names[3][3] = {{"stride_d", "stride_h", "stride_w"}, {"pad_d", "pad_h", "pad_w"}, {"dil_d", "dil_h", "dil_w"}};
  for (int i = 0; i < 3; ++i) {
    g.s[i] = (int64_t)kope_attr_or(a, names[0][i], 1);
    g.p[i] = (int64_t)kope_attr_or(a, names[1][i], 0);
    g.d[i] = (int64_t)kope_attr_or(a, names[2][i], 1);
  }
  const int64_t K = g.Ci * g.KD * g.KH * g.KW, P = g.OD * g.OH * g.OW, rows = g.OD * g.OH;
  const int64_t plane = g.Ci * g.D * g.H * g.W, strips = (Co + kNR - 1) / kNR;
  const int64_t block_rows = std::max<int64_t>(1, kRowsTarget / g.OW);

  // Scratch kept across calls: a fresh multi-MiB vector per call costs more in page faults than the work.
  static thread_local std::vector<float> acc, xin, gin, bp, ap;
  acc.assign(K * Co, 0.0f);  // grad_w^T: row k = tap, column = output channel
  xin.resize(plane);
  gin.resize(Co * P);
  bp.resize(strips * block_rows * g.OW * kNR);
  ap.resize(block_rows * g.OW * kMR);
  for (int64_t n = 0; n < N; ++n) {
    widen(x, n * plane, plane, xin.data());
    widen(gy, n * Co * P, Co * P, gin.data());
    for (int64_t r0 = 0; r0 < rows; r0 += block_rows) {
      const int64_t r1 = std::min(rows, r0 + block_rows), kc = (r1 - r0) * g.OW, p0 = r0 * g.OW;
      // grad_y^T of this block in 32-channel strips, the channels past Co zero.
      std::fill(bp.begin(), bp.begin() + strips * kc * kNR, 0.0f);
      for (int64_t co = 0; co < Co; ++co) {
        const float* src = gin.data() + co * P + p0;
        float* d = bp.data() + (co / kNR) * kc * kNR + co % kNR;
        for (int64_t q = 0; q < kc; ++q) d[q * kNR] = src[q];
      }
      for (int64_t i0 = 0; i0 < K; i0 += kMR) {
        const int mr = (int)std::min<int64_t>(kMR, K - i0);
        for (int r = 0; r < kMR; ++r) {
          if (r < mr) unfold_tap(g, xin.data(), i0 + r, r0, r1, ap.data(), r);
          else
            for (int64_t q = 0; q < kc; ++q) ap[q * kMR + r] = 0.0f;
        }
        for (int64_t s = 0; s < strips; ++s)
          tile(kc, ap.data(), bp.data() + s * kc * kNR, acc.data() + i0 * Co + s * kNR, Co, mr,
               std::min<int64_t>(kNR, Co - s * kNR));
      }
    }
  }
  for (int64_t co = 0; co < Co; ++co)
    for (int64_t k = 0; k < K; ++k) st(gw, co * K + k, acc[k * Co + co]);
  return 0;
}
