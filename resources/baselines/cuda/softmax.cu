// CUDA baseline for softmax: one thread per row, the max, the sum of exp(x - max) in double, then y.
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

__global__ void softmax_kernel(kope_tensor x, kope_tensor y) {
  const int64_t M = x.shape[0], N = x.shape[1];
  for (int64_t m = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; m < M; m += (int64_t)gridDim.x * blockDim.x) {
    double mx = -INFINITY;
    for (int64_t n = 0; n < N; ++n) mx = fmax(mx, ldx(x.data, x.dtype, m * N + n));
    double sum = 0;
    for (int64_t n = 0; n < N; ++n) sum += exp(ldx(x.data, x.dtype, m * N + n) - mx);
    for (int64_t n = 0; n < N; ++n) stx(y.data, y.dtype, m * N + n, exp(ldx(x.data, x.dtype, m * N + n) - mx) / sum);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[0].shape[0] == 0) return 0;
  softmax_kernel<<<grid_for(a->inputs[0].shape[0]), 256, 0, s>>>(a->inputs[0], a->outputs[0]);
  return (int)cudaGetLastError();
}
