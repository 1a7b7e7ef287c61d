// thought: the portable AVX-512BW int8 dot product, vpmaddubsw (u8 x s8 pairs into int16) then vpmaddwd by ones into int32, with x1 flipped to u8 (x + 128, taken back as 128 * column sums of x2), x2 packed in 32-column panels of k-quads, an 8 x 32 register tile over K and the dequantisation in its epilogue
// kope:cxxflags -O3 -march=native
#include <immintrin.h>

#include <cstring>
#include <vector>

#include "kope_kernel.h"

namespace {

constexpr int64_t MR = 8, NR = 32;

// x2 [K, N] as panels of NR columns: panel p, quad q holds x2[4q + j][p NR + c] at ((p K4 + q) NR + c) 4 + j.
void pack_b(const int8_t* b, int64_t K, int64_t N, int64_t K4, int8_t* out, int32_t* colsum) {
  const int64_t P = (N + NR - 1) / NR;
  memset(out, 0, (size_t)(P * K4 * NR * 4));
  for (int64_t n = 0; n < P * NR; ++n) colsum[n] = 0;
  for (int64_t k = 0; k < K; ++k) {
    const int8_t* row = b + k * N;
    const int64_t q = k >> 2, j = k & 3;
    for (int64_t n = 0; n < N; ++n) {
      const int64_t p = n / NR, c = n % NR;
      out[((p * K4 + q) * NR + c) * 4 + j] = row[n];
      colsum[n] += row[n];
    }
  }
}

// x1 rows [m0, m0 + MR) as u8 quads (x ^ 0x80 = x + 128), quad q of row r at q MR + r; missing rows and k are s8 0.
void pack_a(const int8_t* a, int64_t M, int64_t K, int64_t K4, int64_t m0, uint32_t* out) {
  for (int64_t r = 0; r < MR; ++r) {
    const int64_t m = m0 + r;
    for (int64_t q = 0; q < K4; ++q) {
      uint32_t v = 0x80808080u;
      if (m < M) {
        uint8_t bytes[4] = {0, 0, 0, 0};
        for (int64_t j = 0; j < 4 && 4 * q + j < K; ++j) bytes[j] = (uint8_t)a[m * K + 4 * q + j];
        uint32_t raw;
        memcpy(&raw, bytes, 4);
        v = raw ^ 0x80808080u;
      }
      out[q * MR + r] = v;
    }
  }
}

template <int D>  // 0 fp32, 1 fp16, 2 bf16
inline void store16(void* out, int64_t at, __m512 v, __mmask16 mask) {
  if (D == 0) {
    _mm512_mask_storeu_ps(static_cast<float*>(out) + at, mask, v);
  } else if (D == 1) {
    _mm256_mask_storeu_epi16(static_cast<uint16_t*>(out) + at, mask, _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  } else {
    _mm256_mask_storeu_epi16(static_cast<uint16_t*>(out) + at, mask, (__m256i)_mm512_cvtneps_pbh(v));
  }
}

template <int D>
void tile(const uint32_t* ap, const int8_t* bp, int64_t K4, int64_t m0, int64_t n0, int64_t M, int64_t N,
          const int32_t* colsum, const int32_t* bias, const float* scale, const float* pts, void* out) {
  __m512i c[MR][2];
  for (int64_t r = 0; r < MR; ++r) c[r][0] = c[r][1] = _mm512_setzero_si512();
  const __m512i ones = _mm512_set1_epi16(1);
  for (int64_t q = 0; q < K4; ++q) {
    const __m512i b0 = _mm512_loadu_si512(bp + q * NR * 4), b1 = _mm512_loadu_si512(bp + q * NR * 4 + 64);
    for (int64_t r = 0; r < MR; ++r) {
      const __m512i av = _mm512_set1_epi32((int32_t)ap[q * MR + r]);
      c[r][0] = _mm512_add_epi32(c[r][0], _mm512_madd_epi16(_mm512_maddubs_epi16(av, b0), ones));
      c[r][1] = _mm512_add_epi32(c[r][1], _mm512_madd_epi16(_mm512_maddubs_epi16(av, b1), ones));
    }
  }
  for (int64_t v = 0; v < 2; ++v) {
    const int64_t n = n0 + 16 * v;
    if (n >= N) break;
    const __mmask16 mask = N - n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (N - n)) - 1);
    const __m512i fix = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(mask, bias + n),
                                         _mm512_slli_epi32(_mm512_loadu_si512(colsum + n), 7));
    const __m512 s = _mm512_maskz_loadu_ps(mask, scale + n);
    for (int64_t r = 0; r < MR && m0 + r < M; ++r) {
      const __m512 f = _mm512_cvtepi32_ps(_mm512_add_epi32(c[r][v], fix));
      store16<D>(out, (m0 + r) * N + n, _mm512_mul_ps(_mm512_mul_ps(f, s), _mm512_set1_ps(pts[m0 + r])), mask);
    }
  }
}

template <int D> int run(const kope_args* a) {
  const int64_t M = a->inputs[0].shape[0], K = a->inputs[0].shape[1], N = a->inputs[1].shape[1];
  const int64_t K4 = (K + 3) / 4, P = (N + NR - 1) / NR, MB = (M + MR - 1) / MR;
  std::vector<int8_t> bp((size_t)(P * K4 * NR * 4));
  std::vector<int32_t> colsum((size_t)(P * NR));
  pack_b(static_cast<const int8_t*>(a->inputs[1].data), K, N, K4, bp.data(), colsum.data());
  std::vector<uint32_t> ap((size_t)(MB * K4 * MR));
  for (int64_t mb = 0; mb < MB; ++mb)
    pack_a(static_cast<const int8_t*>(a->inputs[0].data), M, K, K4, mb * MR, ap.data() + mb * K4 * MR);
  const float* scale = static_cast<const float*>(a->inputs[2].data);
  const float* pts = static_cast<const float*>(a->inputs[3].data);
  const int32_t* bias = static_cast<const int32_t*>(a->inputs[4].data);
  for (int64_t p = 0; p < P; ++p)
    for (int64_t mb = 0; mb < MB; ++mb)
      tile<D>(ap.data() + mb * K4 * MR, bp.data() + p * K4 * NR * 4, K4, mb * MR, p * NR, M, N, colsum.data(), bias,
              scale, pts, a->outputs[0].data);
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  if (a->inputs[4].dtype != KOPE_I32) return 2;
  switch (a->outputs[0].dtype) {
    case KOPE_F16: return run<1>(a);
    case KOPE_BF16: return run<2>(a);
    default: return run<0>(a);
  }
}
