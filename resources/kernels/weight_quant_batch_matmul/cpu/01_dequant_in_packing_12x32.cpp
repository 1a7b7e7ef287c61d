// thought: a Goto-style fp32 GEMM whose B packing is the dequantisation: each 256 x 512 block of int8 weights is widened, offset and scaled straight into 32-column fp32 panels that stay in L2, x is widened into 12-row panels, and a 12 x 32 AVX-512 register tile accumulates in fp32; the weight is read once as int8, the output converted to x's dtype once at the end
// kope:cxxflags -O3 -march=native
#include <immintrin.h>

#include <algorithm>
#include <vector>

#include "kope_kernel.h"

namespace {

constexpr int64_t MR = 12, NR = 32, KC = 256, NC = 512, MC = 96;

struct F16 {
  static __m512 load16(const uint16_t* p) { return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)p)); }
  static float load(uint16_t v) { return kope_f16_to_f32(v); }
  static void store16(uint16_t* p, __m512 v) {
    _mm256_storeu_si256((__m256i*)p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  static uint16_t store(float v) { return kope_f32_to_f16(v); }
};
struct BF16 {
  static __m512 load16(const uint16_t* p) {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i*)p)), 16));
  }
  static float load(uint16_t v) { return kope_bf16_to_f32(v); }
  static void store16(uint16_t* p, __m512 v) { _mm256_storeu_si256((__m256i*)p, (__m256i)_mm512_cvtneps_pbh(v)); }
  static uint16_t store(float v) { return kope_f32_to_bf16(v); }
};

// C[mr x nr] (row stride ldc) += A panel (kc x MR, k-major) times B panel (kc x NR).
inline void micro(const float* __restrict a, const float* __restrict b, int64_t kc, float* c, int64_t ldc,
                  int64_t mr, int64_t nr) {
  __m512 acc[MR][2];
#pragma GCC unroll 12
  for (int r = 0; r < MR; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    const __m512 b0 = _mm512_load_ps(b + k * NR), b1 = _mm512_load_ps(b + k * NR + 16);
#pragma GCC unroll 12
    for (int r = 0; r < MR; ++r) {
      const __m512 av = _mm512_set1_ps(a[k * MR + r]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  const __mmask16 m0 = nr >= 16 ? 0xffff : (__mmask16)((1u << nr) - 1);
  const __mmask16 m1 = nr >= 32 ? 0xffff : nr <= 16 ? 0 : (__mmask16)((1u << (nr - 16)) - 1);
  for (int r = 0; r < MR && r < mr; ++r) {
    float* row = c + r * ldc;
    _mm512_mask_storeu_ps(row, m0, _mm512_add_ps(_mm512_maskz_loadu_ps(m0, row), acc[r][0]));
    _mm512_mask_storeu_ps(row + 16, m1, _mm512_add_ps(_mm512_maskz_loadu_ps(m1, row + 16), acc[r][1]));
  }
}

// Weight rows [k0, k0 + kc), columns [n0, n0 + nc) dequantised into NR-column panels: (w + offset) * scale.
void pack_b(const int8_t* w, int64_t N, int64_t k0, int64_t kc, int64_t n0, int64_t nc, const float* off,
            const float* sc, float* out) {
  for (int64_t p = 0; p * NR < nc; ++p) {
    const int64_t c0 = n0 + p * NR, cols = std::min<int64_t>(NR, n0 + nc - c0);
    float* panel = out + p * kc * NR;
    if (cols == NR) {
      const __m512 o0 = _mm512_loadu_ps(off + c0), o1 = _mm512_loadu_ps(off + c0 + 16);
      const __m512 s0 = _mm512_loadu_ps(sc + c0), s1 = _mm512_loadu_ps(sc + c0 + 16);
      for (int64_t k = 0; k < kc; ++k) {
        const __m256i raw = _mm256_loadu_si256((const __m256i*)(w + (k0 + k) * N + c0));
        const __m512 v0 = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_castsi256_si128(raw)));
        const __m512 v1 = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_extracti128_si256(raw, 1)));
        _mm512_store_ps(panel + k * NR, _mm512_mul_ps(_mm512_add_ps(v0, o0), s0));
        _mm512_store_ps(panel + k * NR + 16, _mm512_mul_ps(_mm512_add_ps(v1, o1), s1));
      }
    } else {
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t c = 0; c < NR; ++c)
          panel[k * NR + c] = c < cols ? ((float)w[(k0 + k) * N + c0 + c] + off[c0 + c]) * sc[c0 + c] : 0.0f;
    }
  }
}

template <class D>
void pack_a(const uint16_t* x, int64_t M, int64_t K, int64_t m0, int64_t mc, int64_t k0, int64_t kc, float* out) {
  for (int64_t i = 0; i * MR < mc; ++i)
    for (int64_t r = 0; r < MR; ++r) {
      const int64_t m = m0 + i * MR + r;
      float* dst = out + i * kc * MR + r;
      if (m >= M || i * MR + r >= mc) {
        for (int64_t k = 0; k < kc; ++k) dst[k * MR] = 0.0f;
        continue;
      }
      const uint16_t* src = x + m * K + k0;
      for (int64_t k = 0; k < kc; ++k) dst[k * MR] = D::load(src[k]);
    }
}

template <class D> int run(const kope_args* a) {
  const int64_t M = a->inputs[0].shape[0], K = a->inputs[0].shape[1], N = a->inputs[1].shape[1];
  const uint16_t* x = static_cast<const uint16_t*>(a->inputs[0].data);
  const int8_t* w = static_cast<const int8_t*>(a->inputs[1].data);
  std::vector<float> sc((size_t)N), off((size_t)N), c((size_t)(M * N));
  for (int64_t n = 0; n < N; ++n) {
    sc[n] = D::load(static_cast<const uint16_t*>(a->inputs[2].data)[n]);
    off[n] = D::load(static_cast<const uint16_t*>(a->inputs[3].data)[n]);
    const float bias = D::load(static_cast<const uint16_t*>(a->inputs[4].data)[n]);
    for (int64_t m = 0; m < M; ++m) c[m * N + n] = bias;
  }
  float* bp = static_cast<float*>(aligned_alloc(64, sizeof(float) * KC * ((NC + NR - 1) / NR) * NR));
  float* ap = static_cast<float*>(aligned_alloc(64, sizeof(float) * KC * ((MC + MR - 1) / MR) * MR));
  for (int64_t k0 = 0; k0 < K; k0 += KC) {
    const int64_t kc = std::min(KC, K - k0);
    for (int64_t n0 = 0; n0 < N; n0 += NC) {
      const int64_t nc = std::min(NC, N - n0);
      pack_b(w, N, k0, kc, n0, nc, off.data(), sc.data(), bp);
      for (int64_t m0 = 0; m0 < M; m0 += MC) {
        const int64_t mc = std::min(MC, M - m0);
        pack_a<D>(x, M, K, m0, mc, k0, kc, ap);
        for (int64_t i = 0; i * MR < mc; ++i)
          for (int64_t p = 0; p * NR < nc; ++p)
            micro(ap + i * kc * MR, bp + p * kc * NR, kc, c.data() + (m0 + i * MR) * N + n0 + p * NR, N,
                  std::min(MR, mc - i * MR), std::min(NR, nc - p * NR));
      }
    }
  }
  free(bp);
  free(ap);
  uint16_t* out = static_cast<uint16_t*>(a->outputs[0].data);
  int64_t e = 0;
  for (; e + 16 <= M * N; e += 16) D::store16(out + e, _mm512_loadu_ps(c.data() + e));
  for (; e < M * N; ++e) out[e] = D::store(c[e]);
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  if (a->inputs[1].dtype != KOPE_I8) return 2;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return 3;
  }
}
