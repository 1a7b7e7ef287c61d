// thought: one Goto-style fp32 GEMM per group on its row block of x; group_list gives where each group ends (a cumulative list, as MoE routing's prefix sums hand it over), so group g spans rows group_list[g-1] .. group_list[g]
// kope:cxxflags -O3 -march=native
#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kope_kernel.h"

namespace {

constexpr int64_t MR = 12, NR = 32, KC = 256, NC = 512, MC = 96;

struct F32 {
  using T = float;
  static __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
  static float load(float v) { return v; }
  static void store16(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
  static float store(float v) { return v; }
};
struct F16 {
  using T = uint16_t;
  static __m512 load16(const uint16_t* p) { return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)p)); }
  static float load(uint16_t v) { return kope_f16_to_f32(v); }
  static void store16(uint16_t* p, __m512 v) {
    _mm256_storeu_si256((__m256i*)p, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  static uint16_t store(float v) { return kope_f32_to_f16(v); }
};
struct BF16 {
  using T = uint16_t;
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

// Rows [k0, k0 + kc), columns [n0, n0 + nc) of one group's weight [K, N] widened into NR-column panels.
template <class D>
void pack_b(const typename D::T* w, int64_t N, int64_t k0, int64_t kc, int64_t n0, int64_t nc, float* out) {
  for (int64_t p = 0; p * NR < nc; ++p) {
    const int64_t c0 = n0 + p * NR, cols = std::min<int64_t>(NR, n0 + nc - c0);
    float* panel = out + p * kc * NR;
    for (int64_t k = 0; k < kc; ++k) {
      const typename D::T* src = w + (k0 + k) * N + c0;
      if (cols == NR) {
        _mm512_store_ps(panel + k * NR, D::load16(src));
        _mm512_store_ps(panel + k * NR + 16, D::load16(src + 16));
      } else {
        for (int64_t c = 0; c < NR; ++c) panel[k * NR + c] = c < cols ? D::load(src[c]) : 0.0f;
      }
    }
  }
}

template <class D>
void pack_a(const typename D::T* x, int64_t K, int64_t m0, int64_t mc, int64_t k0, int64_t kc, float* out) {
  for (int64_t i = 0; i * MR < mc; ++i)
    for (int64_t r = 0; r < MR; ++r) {
      float* dst = out + i * kc * MR + r;
      if (i * MR + r >= mc) {
        for (int64_t k = 0; k < kc; ++k) dst[k * MR] = 0.0f;
        continue;
      }
      const typename D::T* src = x + (m0 + i * MR + r) * K + k0;
      for (int64_t k = 0; k < kc; ++k) dst[k * MR] = D::load(src[k]);
    }
}

// c [rows, N] += x [rows, K] @ w [K, N]; c holds the bias on entry.
template <class D>
void gemm(const typename D::T* x, const typename D::T* w, int64_t rows, int64_t K, int64_t N, float* c, float* ap,
          float* bp) {
  for (int64_t k0 = 0; k0 < K; k0 += KC) {
    const int64_t kc = std::min(KC, K - k0);
    for (int64_t n0 = 0; n0 < N; n0 += NC) {
      const int64_t nc = std::min(NC, N - n0);
      pack_b<D>(w, N, k0, kc, n0, nc, bp);
      for (int64_t m0 = 0; m0 < rows; m0 += MC) {
        const int64_t mc = std::min(MC, rows - m0);
        pack_a<D>(x, K, m0, mc, k0, kc, ap);
        for (int64_t i = 0; i * MR < mc; ++i)
          for (int64_t p = 0; p * NR < nc; ++p)
            micro(ap + i * kc * MR, bp + p * kc * NR, kc, c + (m0 + i * MR) * N + n0 + p * NR, N,
                  std::min(MR, mc - i * MR), std::min(NR, nc - p * NR));
      }
    }
  }
}

template <class D> int run(const kope_args* a) {
  using T = typename D::T;
  const int64_t M = a->inputs[0].shape[0], K = a->inputs[0].shape[1], G = a->inputs[1].shape[0];
  const int64_t N = a->inputs[1].shape[2];
  const T* x = static_cast<const T*>(a->inputs[0].data);
  const T* w = static_cast<const T*>(a->inputs[1].data);
  const T* bias = static_cast<const T*>(a->inputs[2].data);
  const int64_t* groups = static_cast<const int64_t*>(a->inputs[3].data);
  T* y = static_cast<T*>(a->outputs[0].data);
  float* bp = static_cast<float*>(aligned_alloc(64, sizeof(float) * KC * NC));
  float* ap = static_cast<float*>(aligned_alloc(64, sizeof(float) * KC * ((MC + MR - 1) / MR) * MR));
  std::vector<float> c;
  int64_t row = 0;
  for (int64_t g = 0; g < G; ++g) {
    const int64_t rows = std::max<int64_t>(0, std::min<int64_t>(groups[g], M) - row);
    if (rows < 0 || row + rows > M) return 2;
    if (rows == 0) continue;
    c.resize((size_t)(rows * N));
    for (int64_t m = 0; m < rows; ++m)
      for (int64_t n = 0; n < N; ++n) c[m * N + n] = D::load(bias[g * N + n]);
    gemm<D>(x + row * K, w + g * K * N, rows, K, N, c.data(), ap, bp);
    T* out = y + row * N;
    int64_t e = 0;
    for (; e + 16 <= rows * N; e += 16) D::store16(out + e, _mm512_loadu_ps(c.data() + e));
    for (; e < rows * N; ++e) out[e] = D::store(c[e]);
    row += rows;
  }
  free(bp);
  free(ap);
  memset(y + row * N, 0, sizeof(T) * (size_t)((M - row) * N));
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  if (a->inputs[3].dtype != KOPE_I64) return 3;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return run<F32>(a);
  }
}
