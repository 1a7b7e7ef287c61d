// thought: the int8 weight is read once per 64-row block and dequantised on its way into shared memory, W = (w + offset[n]) * scale[n] in fp32 rounded to x's dtype (as CANN forms it), so the inner loop is a plain fp16/bf16 WMMA 16x16x16 product with fp32 accumulators: 64 x 64 output tiles, 4 warps of 2 x 2 fragments, 32-deep K tiles, x staged with 16-byte loads; bias added in the epilogue
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <stdint.h>

using namespace nvcuda;

constexpr int BM = 64, BN = 64, BK = 32, LA = BK + 8, LB = BN + 8, LC = BN + 4;

template <class T> __device__ __forceinline__ float tof(T v);
template <> __device__ __forceinline__ float tof<__half>(__half v) { return __half2float(v); }
template <> __device__ __forceinline__ float tof<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ __forceinline__ T fromf(float v);
template <> __device__ __forceinline__ __half fromf<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 fromf<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

template <class T, bool VEC>
__global__ void __launch_bounds__(128) wqmm(const T* __restrict__ x, const int8_t* __restrict__ w, const T* __restrict__ scale,
                                            const T* __restrict__ offset, const T* __restrict__ bias, T* __restrict__ out,
                                            int64_t M, int64_t K, int64_t N) {
  __shared__ __align__(128) T As[BM * LA];
  __shared__ __align__(128) T Bs[BK * LB];
  __shared__ __align__(128) float Cs[BM * LC];
  __shared__ float sc[BN], of[BN];
  const int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
  for (int c = threadIdx.x; c < BN; c += blockDim.x) {
    sc[c] = n0 + c < N ? tof<T>(scale[n0 + c]) : 0.0f;
    of[c] = n0 + c < N ? tof<T>(offset[n0 + c]) : 0.0f;
  }
  const int warp = threadIdx.x >> 5, wm = (warp >> 1) * 32, wn = (warp & 1) * 32;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  const T zero = fromf<T>(0.0f);
  for (int64_t k0 = 0; k0 < K; k0 += BK) {
    if (VEC) {  // K a multiple of 8: 16-byte loads of x, wholly in or out of range
      for (int v = threadIdx.x; v < BM * BK / 8; v += blockDim.x) {
        const int r = v / (BK / 8), c = (v % (BK / 8)) * 8;
        uint4 u = make_uint4(0, 0, 0, 0);
        if (m0 + r < M && k0 + c < K) u = *(const uint4*)(x + (m0 + r) * K + k0 + c);
        *(uint4*)(As + r * LA + c) = u;
      }
    } else {
      for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {
        const int r = i / BK, c = i % BK;
        As[r * LA + c] = m0 + r < M && k0 + c < K ? x[(m0 + r) * K + k0 + c] : zero;
      }
    }
    __syncthreads();  // sc and of are written before the first use below
    if (VEC && N % 4 == 0) {  // 4 int8 weights (one 32-bit load) a thread step
      for (int v = threadIdx.x; v < BK * BN / 4; v += blockDim.x) {
        const int r = v / (BN / 4), c = (v % (BN / 4)) * 4;
        char4 q = make_char4(0, 0, 0, 0);
        const bool in = k0 + r < K && n0 + c < N;
        if (in) q = *(const char4*)(w + (k0 + r) * N + n0 + c);
        const signed char qq[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int j = 0; j < 4; ++j) Bs[r * LB + c + j] = in ? fromf<T>(((float)qq[j] + of[c + j]) * sc[c + j]) : zero;
      }
    } else {
      for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) {
        const int r = i / BN, c = i % BN;
        Bs[r * LB + c] = k0 + r < K && n0 + c < N ? fromf<T>(((float)w[(k0 + r) * N + n0 + c] + of[c]) * sc[c]) : zero;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], As + (wm + i * 16) * LA + kk, LA);
#pragma unroll
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], Bs + kk * LB + wn + j * 16, LB);
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
    if (m0 + r < M && n0 + c < N) out[(m0 + r) * N + n0 + c] = fromf<T>(Cs[r * LC + c] + tof<T>(bias[n0 + c]));
  }
}

template <class T> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->inputs[0].shape[0], K = a->inputs[0].shape[1], N = a->inputs[1].shape[1];
  if (M == 0 || N == 0) return 0;
  if ((M + BM - 1) / BM > 65535) return (int)cudaErrorInvalidValue;
  const dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
  const T *x = (const T*)a->inputs[0].data, *sc = (const T*)a->inputs[2].data, *of = (const T*)a->inputs[3].data,
          *b = (const T*)a->inputs[4].data;
  const int8_t* w = (const int8_t*)a->inputs[1].data;
  T* o = (T*)a->outputs[0].data;
  if (K % 8 == 0) wqmm<T, true><<<grid, 128, 0, s>>>(x, w, sc, of, b, o, M, K, N);
  else wqmm<T, false><<<grid, 128, 0, s>>>(x, w, sc, of, b, o, M, K, N);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[1].dtype != KOPE_I8) return (int)cudaErrorInvalidValue;
  for (int i : {2, 3, 4})
    if (a->inputs[i].dtype != a->inputs[0].dtype) return (int)cudaErrorInvalidValue;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<__half>(a, s);
    case KOPE_BF16: return run<__nv_bfloat16>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
