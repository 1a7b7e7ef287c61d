// thought: one channel at a time in a zero-padded fp32 plane, every output row is KH*KW scaled adds of an input row; the filter is read as [KH, KW, C] with the channel innermost, as depthwise filters are laid out for NHWC
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <algorithm>
#include <cstring>
#include <vector>

namespace {

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
  if (t.dtype == KOPE_F32) {
    std::memcpy(static_cast<float*>(t.data) + at, v, sizeof(float) * n);
    return;
  }
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

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& wt = a->inputs[1];
  const kope_tensor& b = a->inputs[2];
  const kope_tensor& y = a->outputs[0];
  const int64_t N = x.shape[0], C = x.shape[1], H = x.shape[2], W = x.shape[3];
  const int64_t KH = wt.shape[2], KW = wt.shape[3], OH = y.shape[2], OW = y.shape[3];
  const int64_t sh = (int64_t)kope_attr_or(a, "stride_h", 1), sw = (int64_t)kope_attr_or(a, "stride_w", 1);
  const int64_t ph = (int64_t)kope_attr_or(a, "pad_h", 0), pw = (int64_t)kope_attr_or(a, "pad_w", 0);
  const int64_t dh = (int64_t)kope_attr_or(a, "dil_h", 1), dw = (int64_t)kope_attr_or(a, "dil_w", 1);
  // The padded plane covers every tap of every output: rows up to (OH-1) sh + (KH-1) dh, likewise columns.
  const int64_t HP = std::max(H + 2 * ph, (OH - 1) * sh + (KH - 1) * dh + 1);
  const int64_t WP = std::max(W + 2 * pw, (OW - 1) * sw + (KW - 1) * dw + 1);
  std::vector<float> plane(HP * WP, 0.0f), wts(KH * KW), out(OH * OW);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t h = 0; h < H; ++h) widen(x, ((n * C + c) * H + h) * W, W, plane.data() + (h + ph) * WP + pw);
      for (int64_t k = 0; k < KH * KW; ++k) wts[k] = ld(wt, k * C + c);
      const float bias = ld(b, c);
      for (int64_t oh = 0; oh < OH; ++oh) {
        float* __restrict o = out.data() + oh * OW;
        for (int64_t ow = 0; ow < OW; ++ow) o[ow] = bias;
        for (int64_t kh = 0; kh < KH; ++kh) {
          const float* row = plane.data() + (oh * sh + kh * dh) * WP;
          for (int64_t kw = 0; kw < KW; ++kw) {
            const float wv = wts[kh * KW + kw];
            const float* __restrict src = row + kw * dw;
            if (sw == 1)
              for (int64_t ow = 0; ow < OW; ++ow) o[ow] += wv * src[ow];
            else
              for (int64_t ow = 0; ow < OW; ++ow) o[ow] += wv * src[ow * sw];
          }
        }
      }
      narrow(out.data(), OH * OW, y, (n * C + c) * OH * OW);
    }
  return 0;
}
