// thought: convolution as an implicit GEMM, C[m = (n, oh, ow)][co] = A[m][k = (ci, kh, kw)] B[k][co], the im2col matrix never stored: 64 x 64 output tiles per block, each K step's A tile gathered from x (zeros in the padding, consecutive threads on consecutive pixels) and B tile from the weights (contiguous along k) into shared memory; fp16 and bf16 multiply on the tensor cores (WMMA 16x16x16, fp32 accumulators, eight warps with two fragments each), fp32 on the CUDA cores with a 4 x 4 register tile per thread (TF32 would miss the fp32 threshold); bias added in the epilogue
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

template <int DT> struct Storage { using T = float; };
template <> struct Storage<KOPE_F16> { using T = __half; };
template <> struct Storage<KOPE_BF16> { using T = __nv_bfloat16; };

template <int DT> __device__ __forceinline__ float to_f(typename Storage<DT>::T v) {
  if constexpr (DT == KOPE_F16) return __half2float(v);
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(v);
  else return v;
}
template <int DT> __device__ __forceinline__ typename Storage<DT>::T from_f(float v) {
  if constexpr (DT == KOPE_F16) return __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) return __float2bfloat16_rn(v);
  else return v;
}

struct Conv {
  int N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw;
  int M, K;  // N OH OW output pixels; Ci KH KW reduction length
};

constexpr int BM = 64, BN = 64;

// Element A[m][k] of the implicit im2col matrix (0 in the padding or past the matrix).
template <int DT>
__device__ __forceinline__ typename Storage<DT>::T a_elem(const typename Storage<DT>::T* __restrict__ x, const Conv& g, int m,
                                                          int k) {
  using T = typename Storage<DT>::T;
  if (m >= g.M || k >= g.K) return from_f<DT>(0.0f);
  const int ow = m % g.OW, oh = (m / g.OW) % g.OH, n = m / (g.OW * g.OH);
  const int kw = k % g.KW, kh = (k / g.KW) % g.KH, ci = k / (g.KW * g.KH);
  const int h = oh * g.sh - g.ph + kh * g.dh, w = ow * g.sw - g.pw + kw * g.dw;
  if (h < 0 || h >= g.H || w < 0 || w >= g.W) return from_f<DT>(0.0f);
  return x[(((int64_t)n * g.Ci + ci) * g.H + h) * g.W + w];
}

template <int DT>
__device__ __forceinline__ void store_out(typename Storage<DT>::T* __restrict__ y, const typename Storage<DT>::T* __restrict__ b,
                                          const Conv& g, int m, int co, float v) {
  if (m >= g.M || co >= g.Co) return;
  const int ow = m % g.OW, oh = (m / g.OW) % g.OH, n = m / (g.OW * g.OH);
  y[(((int64_t)n * g.Co + co) * g.OH + oh) * g.OW + ow] = from_f<DT>(v + to_f<DT>(b[co]));
}

// fp32: BK = 16, 256 threads, a 4 x 4 register tile each.
__global__ void __launch_bounds__(256) conv_simt(const float* __restrict__ x, const float* __restrict__ wt,
                                                 const float* __restrict__ b, float* __restrict__ y, Conv g) {
  constexpr int BK = 16;
  __shared__ float As[BK][BM + 4], Bs[BK][BN + 4];
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < g.K; k0 += BK) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int e = t + 256 * i;
      As[e / BM][e % BM] = a_elem<KOPE_F32>(x, g, m0 + e % BM, k0 + e / BM);
      const int co = n0 + e / BK, k = k0 + e % BK;
      Bs[e % BK][e / BK] = co < g.Co && k < g.K ? wt[(int64_t)co * g.K + k] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float av[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) av[i] = As[k][ty * 4 + i], bv[i] = Bs[k][tx * 4 + i];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) store_out<KOPE_F32>(y, b, g, m0 + ty * 4 + i, n0 + tx * 4 + j, acc[i][j]);
}

// fp16 / bf16: BK = 32, eight warps, each two 16 x 16 accumulator fragments of the 64 x 64 tile.
template <int DT>
__global__ void __launch_bounds__(256) conv_wmma(const typename Storage<DT>::T* __restrict__ x,
                                                 const typename Storage<DT>::T* __restrict__ wt,
                                                 const typename Storage<DT>::T* __restrict__ b,
                                                 typename Storage<DT>::T* __restrict__ y, Conv g) {
  using T = typename Storage<DT>::T;
  constexpr int BK = 32, LDA = BK + 8, LDB = BN + 8, LDC = BN + 4;
  __shared__ __align__(32) T As[BM * LDA];  // row-major [m][k]
  __shared__ __align__(32) T Bs[BK * LDB];  // row-major [k][co]
  __shared__ __align__(32) float Cs[BM * LDC];
  const int t = threadIdx.x, warp = t / 32;
  const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
  const int wm = (warp / 2) * 16, wn = (warp % 2) * 32;  // this warp's 16 x 32 strip
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2];
  wmma::fill_fragment(c[0], 0.0f);
  wmma::fill_fragment(c[1], 0.0f);
  for (int k0 = 0; k0 < g.K; k0 += BK) {
#pragma unroll
    for (int i = 0; i < BM * BK / 256; ++i) {
      const int e = t + 256 * i;  // consecutive threads: consecutive pixels m
      As[(e % BM) * LDA + e / BM] = a_elem<DT>(x, g, m0 + e % BM, k0 + e / BM);
      const int co = n0 + e / BK, k = k0 + e % BK;  // consecutive threads: consecutive k of one filter
      Bs[(e % BK) * LDB + e / BK] = co < g.Co && k < g.K ? wt[(int64_t)co * g.K + k] : from_f<DT>(0.0f);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> af;
      wmma::load_matrix_sync(af, As + wm * LDA + kk, LDA);
#pragma unroll
      for (int j = 0; j < 2; ++j) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> bf;
        wmma::load_matrix_sync(bf, Bs + kk * LDB + wn + 16 * j, LDB);
        wmma::mma_sync(c[j], af, bf, c[j]);
      }
    }
    __syncthreads();
  }
  wmma::store_matrix_sync(Cs + wm * LDC + wn, c[0], LDC, wmma::mem_row_major);
  wmma::store_matrix_sync(Cs + wm * LDC + wn + 16, c[1], LDC, wmma::mem_row_major);
  __syncthreads();
  for (int e = t; e < BM * BN; e += 256) {  // consecutive threads: consecutive pixels of one output channel
    const int mi = e % BM, ni = e / BM;
    store_out<DT>(y, b, g, m0 + mi, n0 + ni, Cs[mi * LDC + ni]);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &w = a->inputs[1], &b = a->inputs[2], &y = a->outputs[0];
  const int dt = x.dtype;
  if (w.dtype != dt || b.dtype != dt || y.dtype != dt || x.ndim != 4 || w.ndim != 4 || y.ndim != 4)
    return (int)cudaErrorInvalidValue;
  if (x.numel >= (int64_t)1 << 31 || y.numel >= (int64_t)1 << 31 || w.numel >= (int64_t)1 << 31)
    return (int)cudaErrorInvalidValue;  // 32-bit pixel and reduction indices
  Conv g;
  g.N = (int)x.shape[0], g.Ci = (int)x.shape[1], g.H = (int)x.shape[2], g.W = (int)x.shape[3];
  g.Co = (int)w.shape[0], g.KH = (int)w.shape[2], g.KW = (int)w.shape[3], g.OH = (int)y.shape[2], g.OW = (int)y.shape[3];
  g.sh = (int)kope_attr_or(a, "stride_h", 1), g.sw = (int)kope_attr_or(a, "stride_w", 1);
  g.ph = (int)kope_attr_or(a, "pad_h", 0), g.pw = (int)kope_attr_or(a, "pad_w", 0);
  g.dh = (int)kope_attr_or(a, "dil_h", 1), g.dw = (int)kope_attr_or(a, "dil_w", 1);
  g.M = g.N * g.OH * g.OW, g.K = g.Ci * g.KH * g.KW;
  if (y.numel == 0) return 0;
  const dim3 grid((unsigned)((g.M + BM - 1) / BM), (unsigned)((g.Co + BN - 1) / BN));
  if (grid.y > 65535) return (int)cudaErrorInvalidValue;
  switch (dt) {
    case KOPE_F32:
      conv_simt<<<grid, 256, 0, s>>>((const float*)x.data, (const float*)w.data, (const float*)b.data, (float*)y.data, g);
      break;
    case KOPE_F16:
      conv_wmma<KOPE_F16><<<grid, 256, 0, s>>>((const __half*)x.data, (const __half*)w.data, (const __half*)b.data,
                                               (__half*)y.data, g);
      break;
    case KOPE_BF16:
      conv_wmma<KOPE_BF16><<<grid, 256, 0, s>>>((const __nv_bfloat16*)x.data, (const __nv_bfloat16*)w.data,
                                                (const __nv_bfloat16*)b.data, (__nv_bfloat16*)y.data, g);
      break;
    default: return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}
