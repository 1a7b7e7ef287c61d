// CUDA baseline for depthwise_conv_2d: one thread per output, the bias plus its in-bounds taps summed in double
// with plain loops (zero padding, strides and dilation as index arithmetic).
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

__global__ void dw_kernel(kope_tensor x, kope_tensor wt, kope_tensor b, kope_tensor y, int64_t sh, int64_t sw, int64_t ph,
                          int64_t pw, int64_t dh, int64_t dw) {
  const int64_t C = x.shape[1], H = x.shape[2], W = x.shape[3], KH = wt.shape[2], KW = wt.shape[3];
  const int64_t OH = y.shape[2], OW = y.shape[3];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < y.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t ow = o % OW, oh = (o / OW) % OH, p = o / (OW * OH), c = p % C;
    double sum = ldx(b.data, b.dtype, c);
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw) {
        const int64_t h = oh * sh - ph + kh * dh, w = ow * sw - pw + kw * dw;
        if (h < 0 || h >= H || w < 0 || w >= W) continue;
        sum += ldx(wt.data, wt.dtype, (c * KH + kh) * KW + kw) * ldx(x.data, x.dtype, (p * H + h) * W + w);
      }
    stx(y.data, y.dtype, o, sum);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  dw_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(
      a->inputs[0], a->inputs[1], a->inputs[2], a->outputs[0], (int64_t)kope_attr_or(a, "stride_h", 1),
      (int64_t)kope_attr_or(a, "stride_w", 1), (int64_t)kope_attr_or(a, "pad_h", 0), (int64_t)kope_attr_or(a, "pad_w", 0),
      (int64_t)kope_attr_or(a, "dil_h", 1), (int64_t)kope_attr_or(a, "dil_w", 1));
  return (int)cudaGetLastError();
}
