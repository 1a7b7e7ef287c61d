// thought: NHWC keeps channels contiguous, so each output pixel is a max over its valid taps of 16-channel vectors (x + filter); SAME padding centres the effective filter, (KE - 1) / 2 rows before, as for a convolution
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"
#include <immintrin.h>
#include <cstring>
#include <vector>

namespace {

int64_t pad_before(int64_t, int64_t, int64_t K, int64_t, int64_t r, bool same) {
  return same ? (K - 1) * r / 2 : 0;
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
  for (; i < n; ++i) out[i] = t.dtype == KOPE_F16 ? kope_f16_to_f32(s[i]) : kope_bf16_to_f32(s[i]);
}

void narrow(const float* v, int64_t n, const kope_tensor& t, int64_t at) {
  if (t.dtype == KOPE_F32) {
    std::memcpy(static_cast<float*>(t.data) + at, v, sizeof(float) * n);
    return;
  }
  uint16_t* d = static_cast<uint16_t*>(t.data) + at;
  for (int64_t i = 0; i < n; ++i) d[i] = t.dtype == KOPE_F16 ? _cvtss_sh(v[i], 0) : kope_f32_to_bf16(v[i]);
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& f = a->inputs[1];
  const kope_tensor& y = a->outputs[0];
  const int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
  const int64_t KH = f.shape[0], KW = f.shape[1], OH = y.shape[1], OW = y.shape[2];
  const int64_t sh = (int64_t)kope_attr_or(a, "stride_h", 1), sw = (int64_t)kope_attr_or(a, "stride_w", 1);
  const int64_t rh = (int64_t)kope_attr_or(a, "rate_h", 1), rw = (int64_t)kope_attr_or(a, "rate_w", 1);
  const bool same = kope_attr_or(a, "same", 1) != 0;
  const int64_t pt = pad_before(H, OH, KH, sh, rh, same), pl = pad_before(W, OW, KW, sw, rw, same);
  std::vector<float> img(H * W * C), flt(KH * KW * C), out(OW * C);
  widen(f, 0, KH * KW * C, flt.data());
  const int64_t chunks = (C + 15) / 16;
  const __mmask16 tail = (__mmask16)((1u << (C - (chunks - 1) * 16)) - 1u);
  for (int64_t n = 0; n < N; ++n) {
    const float* xi = img.data();
    if (x.dtype == KOPE_F32) xi = static_cast<const float*>(x.data) + n * H * W * C;
    else widen(x, n * H * W * C, H * W * C, img.data());
    for (int64_t oh = 0; oh < OH; ++oh) {
      int64_t kh0 = 0, kh1 = KH;  // the filter rows landing inside x
      while (kh0 < KH && oh * sh + kh0 * rh - pt < 0) ++kh0;
      while (kh1 > kh0 && oh * sh + (kh1 - 1) * rh - pt >= H) --kh1;
      for (int64_t ow = 0; ow < OW; ++ow) {
        int64_t kw0 = 0, kw1 = KW;
        while (kw0 < KW && ow * sw + kw0 * rw - pl < 0) ++kw0;
        while (kw1 > kw0 && ow * sw + (kw1 - 1) * rw - pl >= W) --kw1;
        for (int64_t ch = 0; ch < chunks; ++ch) {
          const __mmask16 m = ch + 1 == chunks ? tail : (__mmask16)0xffff;
          __m512 acc = _mm512_set1_ps(-__builtin_inff());
          for (int64_t kh = kh0; kh < kh1; ++kh) {
            const float* xr = xi + ((oh * sh + kh * rh - pt) * W + ow * sw - pl) * C + ch * 16;
            const float* fr = flt.data() + kh * KW * C + ch * 16;
            for (int64_t kw = kw0; kw < kw1; ++kw) {
              const __m512 v = _mm512_add_ps(_mm512_maskz_loadu_ps(m, xr + kw * rw * C), _mm512_maskz_loadu_ps(m, fr + kw * C));
              acc = _mm512_max_ps(acc, v);
            }
          }
          _mm512_mask_storeu_ps(out.data() + ow * C + ch * 16, m, acc);
        }
      }
      narrow(out.data(), OW * C, y, (n * OH + oh) * OW * C);
    }
  }
  return 0;
}
