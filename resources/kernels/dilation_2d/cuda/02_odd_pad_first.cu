// thought: NHWC dilation with the channels fastest across threads: each thread owns V consecutive channels of one output pixel (16-byte loads: 4 fp32 or 8 fp16/bf16 when C allows, else 1), so a warp reads whole contiguous pixel runs of every tap (coalesced) and the filter's channel vector from the read-only cache; the max of x + filter over the in-bounds taps in fp32 (one rounding of each exact sum, as the golden), SAME padding split evenly, the odd row first
// flaw: SAME padding puts the odd extra row or column before the data (total - total / 2), where TensorFlow puts it
// after (total / 2 before): windows shift by one wherever the total padding is odd.
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

// V elements of storage type T moved as one aligned unit (16 bytes for the wide forms).
template <typename T, int V> struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

struct Dil {
  int64_t N, H, W, C, KH, KW, OH, OW;
  int64_t sh, sw, rh, rw, pt, pl;
};

template <int DT, int V>
__global__ void __launch_bounds__(256) dilate(const void* __restrict__ xp, const void* __restrict__ fp, void* __restrict__ yp,
                                              Dil g, int64_t units) {
  using T = typename Storage<DT>::T;
  using P = Pack<T, V>;
  const P* __restrict__ x = static_cast<const P*>(xp);
  const P* __restrict__ f = static_cast<const P*>(fp);
  P* __restrict__ y = static_cast<P*>(yp);
  const int64_t CV = g.C / V;  // channel packs per pixel
  for (int64_t u = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; u < units; u += (int64_t)gridDim.x * blockDim.x) {
    const int64_t cv = u % CV, pix = u / CV;
    const int64_t ow = pix % g.OW, oh = (pix / g.OW) % g.OH, n = pix / (g.OW * g.OH);
    float best[V];
#pragma unroll
    for (int k = 0; k < V; ++k) best[k] = -__int_as_float(0x7f800000);
    for (int64_t kh = 0; kh < g.KH; ++kh) {
      const int64_t h = oh * g.sh + kh * g.rh - g.pt;
      if (h < 0 || h >= g.H) continue;
      for (int64_t kw = 0; kw < g.KW; ++kw) {
        const int64_t w = ow * g.sw + kw * g.rw - g.pl;
        if (w < 0 || w >= g.W) continue;
        const P xv = x[((n * g.H + h) * g.W + w) * CV + cv];
        const P fv = f[(kh * g.KW + kw) * CV + cv];
#pragma unroll
        for (int k = 0; k < V; ++k) {
          const float s = to_f<DT>(xv.v[k]) + to_f<DT>(fv.v[k]);
          best[k] = s > best[k] ? s : best[k];
        }
      }
    }
    P out;
#pragma unroll
    for (int k = 0; k < V; ++k) out.v[k] = from_f<DT>(best[k]);
    y[u] = out;
  }
}

static int64_t pad_before(int64_t L, int64_t O, int64_t K, int64_t s, int64_t r, bool same) {
  if (!same) return 0;
  const int64_t total = (O - 1) * s + (K - 1) * r + 1 - L;
  return total > 0 ? total - total / 2 : 0;
}

template <int DT, int V> static int launch(const kope_args* a, const Dil& g, cudaStream_t s) {
  const int64_t units = a->outputs[0].numel / V;
  const int64_t want = (units + 255) / 256;
  dilate<DT, V><<<(int)(want < 132 * 16 ? want : 132 * 16), 256, 0, s>>>(a->inputs[0].data, a->inputs[1].data,
                                                                       a->outputs[0].data, g, units);
  return (int)cudaGetLastError();
}

template <int DT> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &f = a->inputs[1], &y = a->outputs[0];
  if (x.ndim != 4 || f.ndim != 3 || y.ndim != 4) return (int)cudaErrorInvalidValue;
  Dil g;
  g.N = x.shape[0], g.H = x.shape[1], g.W = x.shape[2], g.C = x.shape[3];
  g.KH = f.shape[0], g.KW = f.shape[1], g.OH = y.shape[1], g.OW = y.shape[2];
  g.sh = (int64_t)kope_attr_or(a, "stride_h", 1), g.sw = (int64_t)kope_attr_or(a, "stride_w", 1);
  g.rh = (int64_t)kope_attr_or(a, "rate_h", 1), g.rw = (int64_t)kope_attr_or(a, "rate_w", 1);
  const bool same = kope_attr_or(a, "same", 1) != 0;
  g.pt = pad_before(g.H, g.OH, g.KH, g.sh, g.rh, same), g.pl = pad_before(g.W, g.OW, g.KW, g.sw, g.rw, same);
  if (y.numel == 0) return 0;
  constexpr int WIDE = DT == KOPE_F32 ? 4 : 8;  // 16 bytes
  if (g.C % WIDE == 0) return launch<DT, WIDE>(a, g, s);
  if (g.C % 2 == 0) return launch<DT, 2>(a, g, s);
  return launch<DT, 1>(a, g, s);
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
