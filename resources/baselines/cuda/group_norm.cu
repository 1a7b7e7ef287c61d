// CUDA baseline for group_norm: one thread per (n, g) group for the statistics (two passes in double: the mean,
// then the biased variance), then one thread per element of y reading them back.
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

__global__ void stats_kernel(kope_tensor x, float* mean_out, float* rstd_out, int64_t G, double eps) {
  const int64_t N = x.shape[0], C = x.shape[1], HW = x.shape[2], count = C / G * HW;
  for (int64_t ng = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; ng < N * G; ng += (int64_t)gridDim.x * blockDim.x) {
    const int64_t base = ng * count;  // a group's channels are contiguous: (n * C + g * CG) * HW
    double s = 0;
    for (int64_t i = 0; i < count; ++i) s += ldx(x.data, x.dtype, base + i);
    const double mean = s / (double)count;
    double q = 0;
    for (int64_t i = 0; i < count; ++i) {
      const double d = ldx(x.data, x.dtype, base + i) - mean;
      q += d * d;
    }
    mean_out[ng] = (float)mean;
    rstd_out[ng] = (float)(1.0 / sqrt(q / (double)count + eps));
  }
}

__global__ void y_kernel(kope_tensor x, kope_tensor gamma, kope_tensor beta, kope_tensor y, const float* mean,
                         const float* rstd, int64_t G) {
  const int64_t C = x.shape[1], HW = x.shape[2], CG = C / G;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < x.numel; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t c = (i / HW) % C, ng = (i / (HW * C)) * G + c / CG;
    const double v = (ldx(x.data, x.dtype, i) - mean[ng]) * rstd[ng] * ldx(gamma.data, gamma.dtype, c) +
                     ldx(beta.data, beta.dtype, c);
    stx(y.data, y.dtype, i, v);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t G = a->outputs[1].shape[1], groups = a->outputs[1].numel;
  if (groups == 0) return 0;
  float* mean = (float*)a->outputs[1].data;
  float* rstd = (float*)a->outputs[2].data;
  stats_kernel<<<grid_for(groups), 256, 0, s>>>(a->inputs[0], mean, rstd, G, kope_attr_or(a, "eps", 1e-5));
  if (a->inputs[0].numel > 0)
    y_kernel<<<grid_for(a->inputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[2], a->outputs[0], mean,
                                                          rstd, G);
  return (int)cudaGetLastError();
}
