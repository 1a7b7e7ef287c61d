// thought: int8 x int8 on the tensor cores, 64 x 64 output tiles of WMMA s8 fragments with int32 accumulators; x2 read as a linear layer's weight, [N, K] row-major, so both operands' K runs are contiguous (16-byte slices of a weight row)
// flaw: x2 is [K, N] (aclnnQuantMatmulV3 with transposeX2 false), not [N, K]: reading x2[n * K + k] multiplies by the
// wrong weights whenever K and N exceed 1.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 64, LC = BN + 4;

template <class T> __device__ __forceinline__ T fromf(float v);
template <> __device__ __forceinline__ float fromf<float>(float v) { return v; }
template <> __device__ __forceinline__ __half fromf<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 fromf<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// As[kc][r][0..15]: x1[m0 + r, k0 + 16 kc + 0..15]; Bs[c][k][0..15]: x2[k0 + k, n0 + 16 c + 0..15] (rows of 32 bytes)
template <class TO, bool VEC>
__global__ void __launch_bounds__(128) qmm(const int8_t* __restrict__ x1, const int8_t* __restrict__ x2,
                                           const float* __restrict__ scale, const float* __restrict__ pts,
                                           const int32_t* __restrict__ bias, TO* __restrict__ out, int64_t M, int64_t K,
                                           int64_t N) {
  __shared__ __align__(128) int8_t As[BK / 16][BM][32];
  __shared__ __align__(128) int8_t Bs[BN / 16][BK][32];
  __shared__ __align__(128) int32_t Cs[BM * LC];
  const int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
  const int warp = threadIdx.x >> 5, wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0);
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    for (int v = threadIdx.x; v < BM * (BK / 16); v += blockDim.x) {  // 16-byte slices of A
      const int r = v / (BK / 16), kc = v % (BK / 16);
      const int64_t m = m0 + r, k = k0 + kc * 16;
      if (VEC) {
        uint4 u = make_uint4(0, 0, 0, 0);
        if (m < M && k < K) u = *(const uint4*)(x1 + m * K + k);
        *(uint4*)&As[kc][r][0] = u;
      } else {
        for (int j = 0; j < 16; ++j) As[kc][r][j] = m < M && k + j < K ? x1[m * K + k + j] : (int8_t)0;
      }
    }
    for (int v = threadIdx.x; v < BK * (BN / 16); v += blockDim.x) {  // 16-byte slices of B
      const int kr = v / (BN / 16), c = v % (BN / 16);
      const int64_t k = k0 + kr, n = n0 + c * 16;
      if (VEC) {
        for (int j = 0; j < 16; ++j) Bs[c][kr][j] = k < K && n + j < N ? x2[(n + j) * K + k] : (int8_t)0;
      } else {
        for (int j = 0; j < 16; ++j) Bs[c][kr][j] = k < K && n + j < N ? x2[(n + j) * K + k] : (int8_t)0;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kc = 0; kc < BK / 16; ++kc) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], (const signed char*)&As[kc][wm + i * 16][0], 32);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], (const signed char*)&Bs[(wn >> 4) + j][kc * 16][0], 32);
#pragma unroll
      for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(Cs + (wm + i * 16) * LC + wn + j * 16, acc[i][j], LC, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BM * BN; i += blockDim.x) {
    const int r = i / BN, c = i % BN;
    const int64_t m = m0 + r, n = n0 + c;
    if (m < M && n < N) out[m * N + n] = fromf<TO>((float)(Cs[r * LC + c] + bias[n]) * scale[n] * pts[m]);
  }
}

template <class TO> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->inputs[0].shape[0], K = a->inputs[0].shape[1], N = a->inputs[1].shape[1];
  if (M == 0 || N == 0) return 0;
  if ((M + BM - 1) / BM > 65535) return (int)cudaErrorInvalidValue;
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  const int8_t *x1 = (const int8_t*)a->inputs[0].data, *x2 = (const int8_t*)a->inputs[1].data;
  const float *sc = (const float*)a->inputs[2].data, *pt = (const float*)a->inputs[3].data;
  const int32_t* b = (const int32_t*)a->inputs[4].data;
  TO* o = (TO*)a->outputs[0].data;
  if (K % 16 == 0 && N % 16 == 0) qmm<TO, true><<<grid, 128, 0, s>>>(x1, x2, sc, pt, b, o, M, K, N);
  else qmm<TO, false><<<grid, 128, 0, s>>>(x1, x2, sc, pt, b, o, M, K, N);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[0].dtype != KOPE_I8 || a->inputs[1].dtype != KOPE_I8 || a->inputs[4].dtype != KOPE_I32)
    return (int)cudaErrorInvalidValue;
  switch (a->outputs[0].dtype) {
    case KOPE_F32: return run<float>(a, s);
    case KOPE_F16: return run<__half>(a, s);
    case KOPE_BF16: return run<__nv_bfloat16>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
