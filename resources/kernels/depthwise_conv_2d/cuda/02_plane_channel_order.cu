// thought: depthwise convolution by 32 x 16 output tiles of one plane per block, plane p = c N + n: the tile's input window with its halo (strides and dilation included) and the plane's filter staged in shared memory as fp32 with coalesced loads and zeros for the padding, then each thread computes two outputs of a column from shared memory (no bounds tests in the inner loop), fp32 sums from the bias; a plain one-thread-per-output kernel for filters whose window would not fit shared memory
// flaw: the channel of plane p is taken as p / N, as if the planes were ordered [C, N]; in NCHW plane p is n C + c, so
// c = p % C: right only when N = 1, every image after the first convolved with other channels' filters.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

template <int DT> __device__ __forceinline__ float ld(const void* p, int64_t i) {
  if constexpr (DT == KOPE_F16) return __half2float(static_cast<const __half*>(p)[i]);
  else if constexpr (DT == KOPE_BF16) return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
  else return __ldg(static_cast<const float*>(p) + i);
}
template <int DT> __device__ __forceinline__ void st(void* p, int64_t i, float v) {
  if constexpr (DT == KOPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
  else if constexpr (DT == KOPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
  else static_cast<float*>(p)[i] = v;
}

struct Conv {
  int64_t planes, C, H, W, KH, KW, OH, OW;
  int sh, sw, ph, pw, dh, dw;
  int IH, IW;  // the tile's input window
};

constexpr int TW = 32, TH = 16, ROWS = TH / 8;  // a 32 x 8 thread block, two output rows per thread

template <int DT>
__global__ void __launch_bounds__(256) dw_tiled(const void* __restrict__ x, const void* __restrict__ w,
                                                const void* __restrict__ b, void* __restrict__ y, Conv g) {
  extern __shared__ float sm[];
  float* tile = sm;                        // IH x IW
  float* filt = sm + g.IH * g.IW;          // KH x KW
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TW + tx;
  const int oh0 = blockIdx.y * TH, ow0 = blockIdx.x * TW;
  const int h0 = oh0 * g.sh - g.ph, w0 = ow0 * g.sw - g.pw;  // the window's first input row and column
  const int K = (int)(g.KH * g.KW);
  for (int64_t p = blockIdx.z; p < g.planes; p += gridDim.z) {
    const int64_t c = p / (g.planes / g.C);
    __syncthreads();  // the previous plane's tile is no longer read
    for (int i = tid; i < K; i += 256) filt[i] = ld<DT>(w, c * K + i);
    const int64_t base = p * g.H * g.W;
    for (int r = ty; r < g.IH; r += 8) {
      const int h = h0 + r;
      const bool hin = h >= 0 && h < g.H;
      for (int q = tx; q < g.IW; q += TW) {
        const int col = w0 + q;
        tile[r * g.IW + q] = hin && col >= 0 && col < g.W ? ld<DT>(x, base + (int64_t)h * g.W + col) : 0.0f;
      }
    }
    __syncthreads();
    const float bias = ld<DT>(b, c);
    const int ow = ow0 + tx;
#pragma unroll
    for (int k = 0; k < ROWS; ++k) {
      const int oh = oh0 + ty + 8 * k;
      if (oh >= g.OH || ow >= g.OW) continue;
      const float* t = tile + (ty + 8 * k) * g.sh * g.IW + tx * g.sw;
      float s = bias;
      for (int kh = 0; kh < g.KH; ++kh) {
        const float* tr = t + kh * g.dh * g.IW;
        const float* fr = filt + kh * g.KW;
        for (int kw = 0; kw < g.KW; ++kw) s = fmaf(fr[kw], tr[kw * g.dw], s);
      }
      st<DT>(y, (p * g.OH + oh) * g.OW + ow, s);
    }
  }
}

// One thread per output, straight from global memory (the L1 cache holds the reuse): for windows too large to stage.
template <int DT>
__global__ void dw_direct(const void* __restrict__ x, const void* __restrict__ w, const void* __restrict__ b,
                          void* __restrict__ y, Conv g, int64_t total) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < total; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t ow = o % g.OW, oh = (o / g.OW) % g.OH, p = o / (g.OW * g.OH), c = p / (g.planes / g.C);
    float s = ld<DT>(b, c);
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      const int64_t h = oh * g.sh - g.ph + kh * g.dh;
      if (h < 0 || h >= g.H) continue;
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        const int64_t col = ow * g.sw - g.pw + kw * g.dw;
        if (col < 0 || col >= g.W) continue;
        s = fmaf(ld<DT>(w, (c * g.KH + kh) * g.KW + kw), ld<DT>(x, (p * g.H + h) * g.W + col), s);
      }
    }
    st<DT>(y, o, s);
  }
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &w = a->inputs[1], &b = a->inputs[2], &y = a->outputs[0];
  if (x.ndim != 4 || w.ndim != 4 || y.ndim != 4) return (int)cudaErrorInvalidValue;
  Conv g;
  g.planes = x.shape[0] * x.shape[1], g.C = x.shape[1], g.H = x.shape[2], g.W = x.shape[3];
  g.KH = w.shape[2], g.KW = w.shape[3], g.OH = y.shape[2], g.OW = y.shape[3];
  g.sh = (int)kope_attr_or(a, "stride_h", 1), g.sw = (int)kope_attr_or(a, "stride_w", 1);
  g.ph = (int)kope_attr_or(a, "pad_h", 0), g.pw = (int)kope_attr_or(a, "pad_w", 0);
  g.dh = (int)kope_attr_or(a, "dil_h", 1), g.dw = (int)kope_attr_or(a, "dil_w", 1);
  const int64_t total = y.numel;
  if (total == 0) return 0;
  const int64_t ih = (int64_t)(TH - 1) * g.sh + (g.KH - 1) * g.dh + 1, iw = (int64_t)(TW - 1) * g.sw + (g.KW - 1) * g.dw + 1;
  const int64_t bytes = (ih * iw + g.KH * g.KW) * (int64_t)sizeof(float);
  if (bytes <= 48 * 1024 && g.H < (1 << 30) && g.W < (1 << 30)) {
    g.IH = (int)ih, g.IW = (int)iw;
    const dim3 grid((unsigned)((g.OW + TW - 1) / TW), (unsigned)((g.OH + TH - 1) / TH),
                    (unsigned)(g.planes < 65535 ? g.planes : 65535));
    if (grid.y > 65535) return (int)cudaErrorInvalidValue;
    dw_tiled<DT><<<grid, dim3(TW, 8), (size_t)bytes, s>>>(x.data, w.data, b.data, y.data, g);
  } else {
    const int64_t want = (total + 255) / 256;
    dw_direct<DT><<<(int)(want < 132 * 16 ? want : 132 * 16), 256, 0, s>>>(x.data, w.data, b.data, y.data, g, total);
  }
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int dt = a->inputs[0].dtype;
  if (a->inputs[1].dtype != dt || a->inputs[2].dtype != dt || a->outputs[0].dtype != dt) return (int)cudaErrorInvalidValue;
  switch (dt) {
    case KOPE_F16: return run<KOPE_F16>(a, s);
    case KOPE_BF16: return run<KOPE_BF16>(a, s);
    case KOPE_F32: return run<KOPE_F32>(a, s);
    default: return (int)cudaErrorInvalidValue;
  }
}
