// thought: (depth taps at od sd + kd dd, the depth padding already in OD) the filter gradient is a GEMM with a long reduction, gw[co][k = (ci, kd, kh, kw)] = sum over m = (n, od, oh, ow) of grad_y[co][m] x_col[m][k], and only Co x Ci KD KH KW outputs (too few 64 x 64 tiles to fill 132 SMs): the reduction is split over blocks (split-K), each block stages 16-deep slices of grad_y and of the implicit im2col of x (zeros in the padding, consecutive threads on consecutive m, so along ow) in shared memory and accumulates a 4 x 4 register tile per thread in fp32; the splits' partial tiles go to a stream-ordered fp32 workspace and a second kernel sums them in a fixed order (deterministic) and rounds once to the output dtype
// flaw: the depth tap reads x at od sd + kd dd, without the forward's depth padding (- pd): right for unpadded
// convolutions, shifted by pd planes on every padded case.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

struct Geo {
  int N, Ci, D, H, W, Co, KD, KH, KW, OD, OH, OW, sd, sh, sw, pd, ph, pw, dd, dh, dw;
  int S;     // OD OH OW
  int Mred;  // N S: the reduction length
  int K;     // Ci KD KH KW: the output columns
  int chunk; // reduction length per split (a multiple of BK)
};

constexpr int BM = 64, BN = 64, BK = 16;

template <int DT>
__device__ __forceinline__ float x_col(const typename Storage<DT>::T* __restrict__ x, const Geo& g, int m, int k) {
  if (m >= g.Mred || k >= g.K) return 0.0f;
  const int s = m % g.S, n = m / g.S;
  const int ow = s % g.OW, oh = (s / g.OW) % g.OH, od = s / (g.OW * g.OH);
  const int kw = k % g.KW, kh = (k / g.KW) % g.KH, kd = (k / (g.KW * g.KH)) % g.KD, ci = k / (g.KW * g.KH * g.KD);
  const int d = od * g.sd + kd * g.dd, h = oh * g.sh - g.ph + kh * g.dh, w = ow * g.sw - g.pw + kw * g.dw;
  if (d < 0 || d >= g.D || h < 0 || h >= g.H || w < 0 || w >= g.W) return 0.0f;
  return to_f<DT>(x[((((int64_t)n * g.Ci + ci) * g.D + d) * g.H + h) * g.W + w]);
}

// Block (tile of co, tile of k, split z): the split's partial sums, to out (splits == 1) or to ws[z].
template <int DT>
__global__ void __launch_bounds__(256) grad_w_tiles(const typename Storage<DT>::T* __restrict__ x,
                                                    const typename Storage<DT>::T* __restrict__ gy,
                                                    typename Storage<DT>::T* __restrict__ gw, float* __restrict__ ws, Geo g) {
  __shared__ float As[BK][BM + 4], Bs[BK][BN + 4];  // As[r][co], Bs[r][k]
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const int c0 = blockIdx.y * BM, k0 = blockIdx.x * BN;
  const int r_begin = blockIdx.z * g.chunk, r_end = min(r_begin + g.chunk, g.Mred);
  float acc[4][4] = {};
  for (int r0 = r_begin; r0 < r_end; r0 += BK) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int e = t + 256 * i, r = e % BK, j = e / BK;  // consecutive threads: consecutive m
      const int m = r0 + r, co = c0 + j;
      float v = 0.0f;
      if (m < r_end && co < g.Co) {
        const int s = m % g.S, n = m / g.S;
        v = to_f<DT>(gy[((int64_t)n * g.Co + co) * g.S + s]);
      }
      As[r][j] = v;
      Bs[r][j] = m < r_end ? x_col<DT>(x, g, m, k0 + j) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < BK; ++r) {
      float av[4], bv[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) av[i] = As[r][ty * 4 + i], bv[i] = Bs[r][tx * 4 + i];
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
    for (int j = 0; j < 4; ++j) {
      const int co = c0 + ty * 4 + i, k = k0 + tx * 4 + j;
      if (co >= g.Co || k >= g.K) continue;
      const int64_t o = (int64_t)co * g.K + k;
      if (ws) ws[(int64_t)blockIdx.z * g.Co * g.K + o] = acc[i][j];
      else gw[o] = from_f<DT>(acc[i][j]);
    }
}

// The splits' partial sums, added in split order, rounded once.
template <int DT>
__global__ void sum_splits(const float* __restrict__ ws, typename Storage<DT>::T* __restrict__ gw, int64_t total, int splits) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < total; o += (int64_t)gridDim.x * blockDim.x) {
    float s = 0.0f;
    for (int z = 0; z < splits; ++z) s += ws[(int64_t)z * total + o];
    gw[o] = from_f<DT>(s);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  using T = typename Storage<DT>::T;
  const kope_tensor &x = a->inputs[0], &gy = a->inputs[1], &gw = a->outputs[0];
  if (x.ndim != 5 || gy.ndim != 5 || gw.ndim != 5) return (int)cudaErrorInvalidValue;
  if (x.numel >= (int64_t)1 << 31 || gy.numel >= (int64_t)1 << 31 || gw.numel >= (int64_t)1 << 31)
    return (int)cudaErrorInvalidValue;  // 32-bit indices
  Geo g;
  g.N = (int)x.shape[0], g.Ci = (int)x.shape[1], g.D = (int)x.shape[2], g.H = (int)x.shape[3], g.W = (int)x.shape[4];
  g.Co = (int)gy.shape[1], g.OD = (int)gy.shape[2], g.OH = (int)gy.shape[3], g.OW = (int)gy.shape[4];
  g.KD = (int)gw.shape[2], g.KH = (int)gw.shape[3], g.KW = (int)gw.shape[4];
  g.sd = (int)kope_attr_or(a, "stride_d", 1), g.sh = (int)kope_attr_or(a, "stride_h", 1), g.sw = (int)kope_attr_or(a, "stride_w", 1);
  g.pd = (int)kope_attr_or(a, "pad_d", 0), g.ph = (int)kope_attr_or(a, "pad_h", 0), g.pw = (int)kope_attr_or(a, "pad_w", 0);
  g.dd = (int)kope_attr_or(a, "dil_d", 1), g.dh = (int)kope_attr_or(a, "dil_h", 1), g.dw = (int)kope_attr_or(a, "dil_w", 1);
  g.S = g.OD * g.OH * g.OW, g.Mred = g.N * g.S, g.K = g.Ci * g.KD * g.KH * g.KW;
  if (gw.numel == 0) return 0;
  const int tiles = ((g.K + BN - 1) / BN) * ((g.Co + BM - 1) / BM);
  const int steps = (g.Mred + BK - 1) / BK;  // BK-deep slices of the reduction
  int splits = (2 * 132 + tiles - 1) / tiles;  // about two blocks per SM
  if (splits > steps / 8) splits = steps / 8;  // but at least 8 slices per split
  if (splits > 512) splits = 512;
  if (splits < 1) splits = 1;
  g.chunk = (steps + splits - 1) / splits * BK;
  splits = g.Mred == 0 ? 1 : (g.Mred + g.chunk - 1) / g.chunk;
  const dim3 grid((unsigned)((g.K + BN - 1) / BN), (unsigned)((g.Co + BM - 1) / BM), (unsigned)splits);
  if (grid.y > 65535) return (int)cudaErrorInvalidValue;
  if (splits == 1) {
    grad_w_tiles<DT><<<grid, 256, 0, s>>>((const T*)x.data, (const T*)gy.data, (T*)gw.data, nullptr, g);
    return (int)cudaGetLastError();
  }
  float* ws = nullptr;
  cudaError_t e = cudaMallocAsync((void**)&ws, (size_t)splits * gw.numel * sizeof(float), s);
  if (e != cudaSuccess) return (int)e;
  grad_w_tiles<DT><<<grid, 256, 0, s>>>((const T*)x.data, (const T*)gy.data, (T*)gw.data, ws, g);
  const int64_t want = (gw.numel + 255) / 256;
  sum_splits<DT><<<(int)(want < 132 * 8 ? want : 132 * 8), 256, 0, s>>>(ws, (T*)gw.data, gw.numel, splits);
  e = cudaGetLastError();
  cudaFreeAsync(ws, s);
  return (int)e;
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int dt = a->inputs[0].dtype;
  if (a->inputs[1].dtype != dt || a->outputs[0].dtype != dt) return (int)cudaErrorInvalidValue;
  switch (dt) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
