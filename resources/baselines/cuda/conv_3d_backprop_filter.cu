// CUDA baseline for conv_3d_backprop_filter: one thread per filter-gradient element, the sum over every batch and
// output position of grad_y times the x element its tap reads, in double with plain loops.
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

struct Attrs {
  int64_t sd, sh, sw, pd, ph, pw, dd, dh, dw;
};

__global__ void grad_w_kernel(kope_tensor x, kope_tensor gy, kope_tensor gw, Attrs at) {
  const int64_t N = x.shape[0], Ci = x.shape[1], D = x.shape[2], H = x.shape[3], W = x.shape[4];
  const int64_t Co = gy.shape[1], OD = gy.shape[2], OH = gy.shape[3], OW = gy.shape[4];
  const int64_t KD = gw.shape[2], KH = gw.shape[3], KW = gw.shape[4];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < gw.numel; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t kw = o % KW, kh = (o / KW) % KH, kd = (o / (KW * KH)) % KD, ci = (o / (KW * KH * KD)) % Ci;
    const int64_t co = o / (KW * KH * KD * Ci);
    double sum = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t od = 0; od < OD; ++od)
        for (int64_t oh = 0; oh < OH; ++oh)
          for (int64_t ow = 0; ow < OW; ++ow) {
            const int64_t d = od * at.sd - at.pd + kd * at.dd, h = oh * at.sh - at.ph + kh * at.dh, w = ow * at.sw - at.pw + kw * at.dw;
            if (d < 0 || d >= D || h < 0 || h >= H || w < 0 || w >= W) continue;
            sum += ldx(gy.data, gy.dtype, (((n * Co + co) * OD + od) * OH + oh) * OW + ow) *
                   ldx(x.data, x.dtype, (((n * Ci + ci) * D + d) * H + h) * W + w);
          }
    stx(gw.data, gw.dtype, o, sum);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  Attrs at;
  at.sd = (int64_t)kope_attr_or(a, "stride_d", 1), at.sh = (int64_t)kope_attr_or(a, "stride_h", 1);
  at.sw = (int64_t)kope_attr_or(a, "stride_w", 1), at.pd = (int64_t)kope_attr_or(a, "pad_d", 0);
  at.ph = (int64_t)kope_attr_or(a, "pad_h", 0), at.pw = (int64_t)kope_attr_or(a, "pad_w", 0);
  at.dd = (int64_t)kope_attr_or(a, "dil_d", 1), at.dh = (int64_t)kope_attr_or(a, "dil_h", 1);
  at.dw = (int64_t)kope_attr_or(a, "dil_w", 1);
  grad_w_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->outputs[0], at);
  return (int)cudaGetLastError();
}
