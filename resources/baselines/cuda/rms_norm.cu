// CUDA baseline for rms_norm: one thread per row, the mean of squares in double, rstd = 1 / sqrt(mean + eps),
// y = x * rstd * gamma.
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

__global__ void rms_norm_kernel(kope_tensor x, kope_tensor gamma, kope_tensor y, float* rstd_out, double eps) {
  const int64_t M = x.shape[0], D = x.shape[1];
  for (int64_t m = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; m < M; m += (int64_t)gridDim.x * blockDim.x) {
    double acc = 0;
    for (int64_t d = 0; d < D; ++d) {
      const double v = ldx(x.data, x.dtype, m * D + d);
      acc += v * v;
    }
    const double rstd = 1.0 / sqrt(acc / (double)D + eps);
    rstd_out[m] = (float)rstd;
    for (int64_t d = 0; d < D; ++d)
      stx(y.data, y.dtype, m * D + d, ldx(x.data, x.dtype, m * D + d) * rstd * ldx(gamma.data, gamma.dtype, d));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[0].shape[0] == 0) return 0;
  rms_norm_kernel<<<grid_for(a->inputs[0].shape[0]), 256, 0, s>>>(
      a->inputs[0], a->inputs[1], a->outputs[0], (float*)a->outputs[1].data, kope_attr_or(a, "eps", 1e-6));
  return (int)cudaGetLastError();
}
