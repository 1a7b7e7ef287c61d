// thought: collapse the permutation, copy runs that stay innermost, and transpose the rest as 32x32 tiles of in-register 8x8 blocks; the tensors here are large, so the loops step over whole tiles only
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"
#include <immintrin.h>
#include <cstring>

namespace {

// The permutation with axes of length 1 dropped and neighbours that stay neighbours merged: rank r <= 4,
// in_len[k] the input axes, perm[j] the input axis of output axis j.
struct Plan {
  int r = 0;
  int64_t in_len[4], perm[4], in_stride[4];
};

Plan collapse(const int64_t* shape, const int64_t* p) {
  int64_t keep_axis[4], keep_n = 0;  // output order of the input axes kept
  for (int j = 0; j < 4; ++j)
    if (shape[p[j]] != 1) keep_axis[keep_n++] = p[j];
  // Group output-consecutive axes that are input-consecutive (ignoring dropped axes of length 1).
  int64_t rank_of[4];
  int64_t order[4];
  for (int i = 0; i < keep_n; ++i) order[i] = keep_axis[i];
  // Sort the kept axes by input position to find each one's successor among the kept ones.
  for (int i = 0; i < keep_n; ++i)
    for (int k = i + 1; k < keep_n; ++k)
      if (order[k] < order[i]) { int64_t t = order[i]; order[i] = order[k]; order[k] = t; }
  for (int i = 0; i < keep_n; ++i) rank_of[i] = 0;
  auto pos = [&](int64_t axis) { for (int i = 0; i < keep_n; ++i) if (order[i] == axis) return i; return -1; };
  int64_t group_first[4], group_len[4];  // per output group: first input rank and product of lengths
  int g = -1;
  for (int j = 0; j < keep_n; ++j) {
    const int q = pos(keep_axis[j]);
    if (g >= 0 && q == pos(keep_axis[j - 1]) + 1) {
      group_len[g] *= shape[keep_axis[j]];
    } else {
      ++g;
      group_first[g] = q;
      group_len[g] = shape[keep_axis[j]];
    }
  }
  Plan pl;
  pl.r = g + 1;
  // Groups in input order give the new input axes.
  for (int j = 0; j < pl.r; ++j) {
    int64_t rank = 0;
    for (int k = 0; k < pl.r; ++k) rank += group_first[k] < group_first[j];
    rank_of[j] = rank;
    pl.in_len[rank] = group_len[j];
  }
  for (int j = 0; j < pl.r; ++j) pl.perm[j] = rank_of[j];
  int64_t s = 1;
  for (int k = pl.r - 1; k >= 0; --k) { pl.in_stride[k] = s; s *= pl.in_len[k]; }
  return pl;
}

#ifdef __AVX2__
// 8x8 block of 4-byte elements: rows of `in` (stride ls) become columns of `out` (stride os).
inline void tr8x8(const float* in, int64_t ls, float* out, int64_t os) {
  __m256 r0 = _mm256_loadu_ps(in + 0 * ls), r1 = _mm256_loadu_ps(in + 1 * ls), r2 = _mm256_loadu_ps(in + 2 * ls),
         r3 = _mm256_loadu_ps(in + 3 * ls), r4 = _mm256_loadu_ps(in + 4 * ls), r5 = _mm256_loadu_ps(in + 5 * ls),
         r6 = _mm256_loadu_ps(in + 6 * ls), r7 = _mm256_loadu_ps(in + 7 * ls);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
         t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
         t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE),
         s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE),
         s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE),
         s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  _mm256_storeu_ps(out + 0 * os, _mm256_permute2f128_ps(s0, s4, 0x20));
  _mm256_storeu_ps(out + 1 * os, _mm256_permute2f128_ps(s1, s5, 0x20));
  _mm256_storeu_ps(out + 2 * os, _mm256_permute2f128_ps(s2, s6, 0x20));
  _mm256_storeu_ps(out + 3 * os, _mm256_permute2f128_ps(s3, s7, 0x20));
  _mm256_storeu_ps(out + 4 * os, _mm256_permute2f128_ps(s0, s4, 0x31));
  _mm256_storeu_ps(out + 5 * os, _mm256_permute2f128_ps(s1, s5, 0x31));
  _mm256_storeu_ps(out + 6 * os, _mm256_permute2f128_ps(s2, s6, 0x31));
  _mm256_storeu_ps(out + 7 * os, _mm256_permute2f128_ps(s3, s7, 0x31));
}

// 8x8 block of 2-byte elements (SSE2 unpacks).
inline void tr8x8_16(const uint16_t* in, int64_t ls, uint16_t* out, int64_t os) {
  __m128i r[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm_loadu_si128((const __m128i*)(in + i * ls));
  __m128i a0 = _mm_unpacklo_epi16(r[0], r[1]), a1 = _mm_unpackhi_epi16(r[0], r[1]),
          a2 = _mm_unpacklo_epi16(r[2], r[3]), a3 = _mm_unpackhi_epi16(r[2], r[3]),
          a4 = _mm_unpacklo_epi16(r[4], r[5]), a5 = _mm_unpackhi_epi16(r[4], r[5]),
          a6 = _mm_unpacklo_epi16(r[6], r[7]), a7 = _mm_unpackhi_epi16(r[6], r[7]);
  __m128i b0 = _mm_unpacklo_epi32(a0, a2), b1 = _mm_unpackhi_epi32(a0, a2), b2 = _mm_unpacklo_epi32(a1, a3),
          b3 = _mm_unpackhi_epi32(a1, a3), b4 = _mm_unpacklo_epi32(a4, a6), b5 = _mm_unpackhi_epi32(a4, a6),
          b6 = _mm_unpacklo_epi32(a5, a7), b7 = _mm_unpackhi_epi32(a5, a7);
  _mm_storeu_si128((__m128i*)(out + 0 * os), _mm_unpacklo_epi64(b0, b4));
  _mm_storeu_si128((__m128i*)(out + 1 * os), _mm_unpackhi_epi64(b0, b4));
  _mm_storeu_si128((__m128i*)(out + 2 * os), _mm_unpacklo_epi64(b1, b5));
  _mm_storeu_si128((__m128i*)(out + 3 * os), _mm_unpackhi_epi64(b1, b5));
  _mm_storeu_si128((__m128i*)(out + 4 * os), _mm_unpacklo_epi64(b2, b6));
  _mm_storeu_si128((__m128i*)(out + 5 * os), _mm_unpackhi_epi64(b2, b6));
  _mm_storeu_si128((__m128i*)(out + 6 * os), _mm_unpacklo_epi64(b3, b7));
  _mm_storeu_si128((__m128i*)(out + 7 * os), _mm_unpackhi_epi64(b3, b7));
}

// 8x8 block of bytes: 8-byte rows in, three rounds of unpacks, 8-byte rows out.
inline void tr8x8_8(const uint8_t* in, int64_t ls, uint8_t* out, int64_t os) {
  __m128i r[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm_loadl_epi64((const __m128i*)(in + i * ls));
  __m128i a0 = _mm_unpacklo_epi8(r[0], r[1]), a1 = _mm_unpacklo_epi8(r[2], r[3]),
          a2 = _mm_unpacklo_epi8(r[4], r[5]), a3 = _mm_unpacklo_epi8(r[6], r[7]);
  __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1), b2 = _mm_unpacklo_epi16(a2, a3),
          b3 = _mm_unpackhi_epi16(a2, a3);
  __m128i c0 = _mm_unpacklo_epi32(b0, b2), c1 = _mm_unpackhi_epi32(b0, b2), c2 = _mm_unpacklo_epi32(b1, b3),
          c3 = _mm_unpackhi_epi32(b1, b3);
  _mm_storel_epi64((__m128i*)(out + 0 * os), c0);
  _mm_storel_epi64((__m128i*)(out + 1 * os), _mm_unpackhi_epi64(c0, c0));
  _mm_storel_epi64((__m128i*)(out + 2 * os), c1);
  _mm_storel_epi64((__m128i*)(out + 3 * os), _mm_unpackhi_epi64(c1, c1));
  _mm_storel_epi64((__m128i*)(out + 4 * os), c2);
  _mm_storel_epi64((__m128i*)(out + 5 * os), _mm_unpackhi_epi64(c2, c2));
  _mm_storel_epi64((__m128i*)(out + 6 * os), c3);
  _mm_storel_epi64((__m128i*)(out + 7 * os), _mm_unpackhi_epi64(c3, c3));
}
#endif

// out[b * os + a] = in[a * ls + b] for a < A, b < B, in square tiles of T.
template <typename E, int T>
void transpose2d(const E* __restrict in, int64_t ls, E* __restrict out, int64_t os, int64_t A, int64_t B) {
  for (int64_t a0 = 0; a0 + T <= A; a0 += T) {
    const int64_t a1 = a0 + T;
    for (int64_t b0 = 0; b0 + T <= B; b0 += T) {
      const int64_t b1 = b0 + T;
#ifdef __AVX2__
      if constexpr (sizeof(E) <= 4) if (a1 - a0 == T && b1 - b0 == T) {
        for (int64_t a = a0; a < a1; a += 8)
          for (int64_t b = b0; b < b1; b += 8) {
            if constexpr (sizeof(E) == 4)
              tr8x8(reinterpret_cast<const float*>(in + a * ls + b), ls, reinterpret_cast<float*>(out + b * os + a), os);
            else if constexpr (sizeof(E) == 2)
              tr8x8_16(in + a * ls + b, ls, out + b * os + a, os);
            else
              tr8x8_8(in + a * ls + b, ls, out + b * os + a, os);
          }
        continue;
      }
#endif
      for (int64_t b = b0; b < b1; ++b)
        for (int64_t a = a0; a < a1; ++a) out[b * os + a] = in[a * ls + b];
    }
  }
}

template <typename E>
void run(const Plan& pl, const E* x, E* y) {
  const int r = pl.r;
  if (r <= 1 || pl.perm[r - 1] == r - 1) {
    // The innermost input axis stays innermost: whole runs of `run` elements, in output order.
    const int64_t run = r == 0 ? 1 : pl.in_len[r - 1];
    int64_t out_len[3] = {1, 1, 1}, src[3] = {0, 0, 0};
    for (int j = 0; j + 1 < r; ++j) { out_len[3 - (r - 1) + j] = pl.in_len[pl.perm[j]]; src[3 - (r - 1) + j] = pl.in_stride[pl.perm[j]]; }
    E* o = y;
    for (int64_t i0 = 0; i0 < out_len[0]; ++i0)
      for (int64_t i1 = 0; i1 < out_len[1]; ++i1)
        for (int64_t i2 = 0; i2 < out_len[2]; ++i2, o += run)
          std::memcpy(o, x + i0 * src[0] + i1 * src[1] + i2 * src[2], sizeof(E) * run);
    return;
  }
  // Tile the output's innermost axis (input axis perm[r-1]) against the input's innermost axis (output axis jb).
  int jb = 0;
  for (int j = 0; j < r; ++j) if (pl.perm[j] == r - 1) jb = j;
  int64_t os[4];
  { int64_t s = 1; for (int j = r - 1; j >= 0; --j) { os[j] = s; s *= pl.in_len[pl.perm[j]]; } }
  const int64_t A = pl.in_len[pl.perm[r - 1]], ls = pl.in_stride[pl.perm[r - 1]];
  const int64_t B = pl.in_len[r - 1], osb = os[jb];
  int64_t olen[2] = {1, 1}, ostr[2] = {0, 0}, istr[2] = {0, 0};
  int n = 0;
  for (int j = 0; j < r - 1; ++j)
    if (j != jb) { olen[n] = pl.in_len[pl.perm[j]]; ostr[n] = os[j]; istr[n] = pl.in_stride[pl.perm[j]]; ++n; }
  constexpr int T = 32;  // 32x32 tiles: at most 8 KiB of each side in flight, 8x8 blocks inside
  for (int64_t i0 = 0; i0 < olen[0]; ++i0)
    for (int64_t i1 = 0; i1 < olen[1]; ++i1)
      transpose2d<E, T>(x + i0 * istr[0] + i1 * istr[1], ls, y + i0 * ostr[0] + i1 * ostr[1], osb, A, B);
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const int64_t p[4] = {(int64_t)kope_attr_or(a, "p0", 0), (int64_t)kope_attr_or(a, "p1", 1),
                        (int64_t)kope_attr_or(a, "p2", 2), (int64_t)kope_attr_or(a, "p3", 3)};
  const Plan pl = collapse(x.shape, p);
  switch (x.dtype) {
    case KOPE_F32: case KOPE_I32: run(pl, (const uint32_t*)x.data, (uint32_t*)a->outputs[0].data); return 0;
    case KOPE_F16: case KOPE_BF16: run(pl, (const uint16_t*)x.data, (uint16_t*)a->outputs[0].data); return 0;
    case KOPE_I8: case KOPE_U8: run(pl, (const uint8_t*)x.data, (uint8_t*)a->outputs[0].data); return 0;
    case KOPE_F64: case KOPE_I64: run(pl, (const uint64_t*)x.data, (uint64_t*)a->outputs[0].data); return 0;
    default: return 7;
  }
}
