// thought: sum the box axis by axis (depth planes, then rows, then columns), each window spanning floor(o L / O) to (o + 1) L / O, fp16/bf16 widened on load
// kope:cxxflags -O3 -march=native -fno-math-errno
#include "kope_kernel.h"
#include <immintrin.h>
#include <vector>

namespace {

inline int64_t start_of(int64_t o, int64_t L, int64_t O) { return (o * L) / O; }
inline int64_t end_of(int64_t o, int64_t L, int64_t O) { return ((o + 1) * L) / O; }

// acc[i] (+)= src[i] for i < n, src in storage type DT.
template <int DT>
void accumulate(float* __restrict acc, const void* src, int64_t n, bool first) {
  int64_t i = 0;
  if constexpr (DT == KOPE_F32) {
    const float* s = static_cast<const float*>(src);
    if (first) for (; i < n; ++i) acc[i] = s[i];
    else for (; i < n; ++i) acc[i] += s[i];
  } else {
    const uint16_t* s = static_cast<const uint16_t*>(src);
    for (; i + 16 <= n; i += 16) {
      const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i));
      __m512 v;
      if constexpr (DT == KOPE_F16) v = _mm512_cvtph_ps(h);
      else v = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
      _mm512_storeu_ps(acc + i, first ? v : _mm512_add_ps(_mm512_loadu_ps(acc + i), v));
    }
    for (; i < n; ++i) {
      const float v = DT == KOPE_F16 ? kope_f16_to_f32(s[i]) : kope_bf16_to_f32(s[i]);
      acc[i] = first ? v : acc[i] + v;
    }
  }
}

template <int DT>
void store(void* y, int64_t i, float v) {
  if constexpr (DT == KOPE_F32) static_cast<float*>(y)[i] = v;
  else if constexpr (DT == KOPE_F16) static_cast<uint16_t*>(y)[i] = _cvtss_sh(v, 0);
  else static_cast<uint16_t*>(y)[i] = kope_f32_to_bf16(v);
}

template <int DT>
int run(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const kope_tensor& y = a->outputs[0];
  const int64_t NC = x.shape[0] * x.shape[1], D = x.shape[2], H = x.shape[3], W = x.shape[4];
  const int64_t OD = y.shape[2], OH = y.shape[3], OW = y.shape[4];
  const int64_t es = DT == KOPE_F32 ? 4 : 2;
  std::vector<float> plane(H * W), row(W);
  const char* xb = static_cast<const char*>(x.data);
  int64_t o = 0;
  for (int64_t p = 0; p < NC; ++p)
    for (int64_t od = 0; od < OD; ++od) {
      const int64_t d0 = start_of(od, D, OD), d1 = end_of(od, D, OD);
      for (int64_t d = d0; d < d1; ++d)
        accumulate<DT>(plane.data(), xb + ((p * D + d) * H * W) * es, H * W, d == d0);
      for (int64_t oh = 0; oh < OH; ++oh) {
        const int64_t h0 = start_of(oh, H, OH), h1 = end_of(oh, H, OH);
        for (int64_t w = 0; w < W; ++w) row[w] = plane[h0 * W + w];
        for (int64_t h = h0 + 1; h < h1; ++h)
          for (int64_t w = 0; w < W; ++w) row[w] += plane[h * W + w];
        const float dh = static_cast<float>((d1 - d0) * (h1 - h0));
        for (int64_t ow = 0; ow < OW; ++ow) {
          const int64_t w0 = start_of(ow, W, OW), w1 = end_of(ow, W, OW);
          float s = 0.0f;
          for (int64_t w = w0; w < w1; ++w) s += row[w];
          store<DT>(y.data, o++, s / (dh * static_cast<float>(w1 - w0)));
        }
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
