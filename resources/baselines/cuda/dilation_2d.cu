// CUDA baseline for dilation_2d: one thread per output element (NHWC), the max of x + filter over the in-bounds
// taps with plain loops in double, TensorFlow's SAME padding.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Element i of a floating tensor whatever its storage (fp32, fp64, fp16, bf16), and the store back.
__device__ inline double ldx(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F64: return static_cast<const double*>(p)[i];
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void stx(void* p, int dt, int64_t i, double v) {
  switch (dt) {
    case KOPE_F64: static_cast<double*>(p)[i] = v; break;
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn((float)v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn((float)v); break;
    default: static_cast<float*>(p)[i] = (float)v; break;
  }
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}
static int64_t pad_before(int64_t L, int64_t O, int64_t K, int64_t s, int64_t r, bool same) {
  if (!same) return 0;
  const int64_t total = (O - 1) * s + (K - 1) * r + 1 - L;
  return total > 0 ? total / 2 : 0;
}

__global__ void dilation_kernel(kope_tensor x, kope_tensor f, kope_tensor y, int64_t sh, int64_t sw, int64_t rh, int64_t rw,
                                int64_t pt, int64_t pl) {
  const int64_t H = x.shape[1], W = x.shape[2], C = x.shape[3], KH = f.shape[0], KW = f.shape[1];
  const int64_t OH = y.shape[1], OW = y.shape[2];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < y.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = o % C, ow = (o / C) % OW, oh = (o / (C * OW)) % OH, n = o / (C * OW * OH);
    bool any = false;
    double best = 0;
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw) {
        const int64_t h = oh * sh + kh * rh - pt, w = ow * sw + kw * rw - pl;
        if (h < 0 || h >= H || w < 0 || w >= W) continue;
        const double v = ldx(x.data, x.dtype, ((n * H + h) * W + w) * C + c) + ldx(f.data, f.dtype, (kh * KW + kw) * C + c);
        if (!any || v > best) best = v;
        any = true;
      }
    stx(y.data, y.dtype, o, best);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &f = a->inputs[1], &y = a->outputs[0];
  if (y.numel == 0) return 0;
  const int64_t sh = (int64_t)kope_attr_or(a, "stride_h", 1), sw = (int64_t)kope_attr_or(a, "stride_w", 1);
  const int64_t rh = (int64_t)kope_attr_or(a, "rate_h", 1), rw = (int64_t)kope_attr_or(a, "rate_w", 1);
  const bool same = kope_attr_or(a, "same", 1) != 0;
  const int64_t pt = pad_before(x.shape[1], y.shape[1], f.shape[0], sh, rh, same);
  const int64_t pl = pad_before(x.shape[2], y.shape[2], f.shape[1], sw, rw, same);
  dilation_kernel<<<grid_for(y.numel), 256, 0, s>>>(x, f, y, sh, sw, rh, rw, pt, pl);
  return (int)cudaGetLastError();
}
