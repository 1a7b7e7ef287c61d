// thought: a group of threads per output window: a warp when there are outputs enough to fill the GPU, a whole 256-thread block for the few huge windows of global pooling; the group walks the window's (d, h, w) flattened with w fastest, so neighbouring lanes read neighbouring elements of each row (coalesced), sums in fp32 registers and reduces with warp shuffles (and shared memory across warps); windows [floor(o L / O), ceil((o + 1) L / O)) per axis
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <int DT> __device__ __forceinline__ float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return __half2float(static_cast<const __half*>(p)[i]);
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  else return static_cast<const float*>(p)[i];
}
template <int DT> __device__ __forceinline__ void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}

struct Dims {
  int64_t NC, D, H, W, OD, OH, OW;
};

__device__ __forceinline__ int64_t start_of(int64_t o, int64_t L, int64_t O) { return (o * L) / O; }
__device__ __forceinline__ int64_t end_of(int64_t o, int64_t L, int64_t O) { return ((o + 1) * L + O - 1) / O; }

// The sum of output o's window, taken by `lanes` threads (lane = this thread's index among them); every lane
// returns its partial sum.
template <int DT>
__device__ __forceinline__ float window_part(const void* __restrict__ x, const Dims& g, int64_t o, int lane, int lanes,
                                             float& count) {
  const int64_t ow = o % g.OW, oh = (o / g.OW) % g.OH, od = (o / (g.OW * g.OH)) % g.OD, p = o / (g.OW * g.OH * g.OD);
  const int64_t d0 = start_of(od, g.D, g.OD), d1 = end_of(od, g.D, g.OD);
  const int64_t h0 = start_of(oh, g.H, g.OH), h1 = end_of(oh, g.H, g.OH);
  const int64_t w0 = start_of(ow, g.W, g.OW), w1 = end_of(ow, g.W, g.OW);
  const int nw = (int)(w1 - w0), nhw = (int)((h1 - h0) * nw), n = (int)((d1 - d0) * nhw);
  count = (float)n;
  const int64_t base = ((p * g.D + d0) * g.H + h0) * g.W + w0;
  float s = 0.0f;
  for (int k = lane; k < n; k += lanes) {
    const int dd = k / nhw, r = k - dd * nhw, hh = r / nw, ww = r - hh * nw;
    s += ld<DT>(x, base + ((int64_t)dd * g.H + hh) * g.W + ww);
  }
  return s;
}

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// One warp per output; a block holds 8 warps (8 outputs).
template <int DT> __global__ void pool_warp(const void* __restrict__ x, void* __restrict__ y, Dims g, int64_t total) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  for (int64_t o = blockIdx.x * (int64_t)(blockDim.x >> 5) + (threadIdx.x >> 5); o < total; o += warps) {
    float count;
    const float s = warp_sum(window_part<DT>(x, g, o, lane, 32, count));
    if (lane == 0) st<DT>(y, o, s / count);
  }
}

// One 256-thread block per output: for few outputs with large windows (global pooling).
template <int DT> __global__ void pool_block(const void* __restrict__ x, void* __restrict__ y, Dims g, int64_t total) {
  __shared__ float part[8];
  for (int64_t o = blockIdx.x; o < total; o += gridDim.x) {
    float count;
    const float s = warp_sum(window_part<DT>(x, g, o, threadIdx.x, blockDim.x, count));
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
      const float t = warp_sum(threadIdx.x < 8 ? part[threadIdx.x] : 0.0f);
      if (threadIdx.x == 0) st<DT>(y, o, t / count);
    }
    __syncthreads();  // part is reused by the next output
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 5 || y.ndim != 5) return (int)cudaErrorInvalidValue;
  const Dims g{x.shape[0] * x.shape[1], x.shape[2], x.shape[3], x.shape[4], y.shape[2], y.shape[3], y.shape[4]};
  const int64_t total = y.numel;
  if (total == 0) return 0;
  const int64_t window = ((g.D + g.OD - 1) / g.OD + 1) * ((g.H + g.OH - 1) / g.OH + 1) * ((g.W + g.OW - 1) / g.OW + 1);
  if (total < 132 * 16 && window >= 1024) {  // too few outputs to give every SM warps: a block per window
    pool_block<DT><<<(int)(total < 65535 ? total : 65535), 256, 0, s>>>(x.data, y.data, g, total);
  } else {
    const int64_t want = (total + 7) / 8;
    pool_warp<DT><<<(int)(want < 132 * 64 ? want : 132 * 64), 256, 0, s>>>(x.data, y.data, g, total);
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].dtype != a->inputs[0].dtype) return (int)cudaErrorInvalidValue;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
