// CUDA baseline for apply_adam_w: one thread per parameter, the AdamW step in double as the reference writes it,
// any floating storage type.
#include "kope_cuda.h"
#include <math.h>

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
// Index tensors: int32 or int64.
__device__ inline int64_t ldi(const void* p, int dt, int64_t i) {
  return dt == KOPE_I32 ? (int64_t) static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

__global__ void adam_w_kernel(kope_tensor p, kope_tensor m, kope_tensor v, kope_tensor g, kope_tensor po,
                              kope_tensor mo, kope_tensor vo, double lr, double b1, double b2, double eps, double wd,
                              double step) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < p.numel; i += (int64_t)gridDim.x * blockDim.x) {
    const double gi = ldx(g.data, g.dtype, i);
    const double mi = b1 * ldx(m.data, m.dtype, i) + (1 - b1) * gi;
    const double vi = b2 * ldx(v.data, v.dtype, i) + (1 - b2) * gi * gi;
    double pi = ldx(p.data, p.dtype, i) * (1 - lr * wd);
    pi -= (lr / (1 - pow(b1, step))) * mi / (sqrt(vi) / sqrt(1 - pow(b2, step)) + eps);
    stx(po.data, po.dtype, i, pi);
    stx(mo.data, mo.dtype, i, mi);
    stx(vo.data, vo.dtype, i, vi);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[0].numel == 0) return 0;
  adam_w_kernel<<<grid_for(a->inputs[0].numel), 256, 0, s>>>(
      a->inputs[0], a->inputs[1], a->inputs[2], a->inputs[3], a->outputs[0], a->outputs[1], a->outputs[2],
      kope_attr_or(a, "lr", 1e-3), kope_attr_or(a, "beta1", 0.9), kope_attr_or(a, "beta2", 0.999),
      kope_attr_or(a, "eps", 1e-8), kope_attr_or(a, "weight_decay", 0.01), kope_attr_or(a, "step", 1));
  return (int)cudaGetLastError();
}
