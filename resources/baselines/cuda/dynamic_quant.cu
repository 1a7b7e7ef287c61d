// CUDA baseline for dynamic_quant: one thread per row: the fp32 scale max|x| / 127, then
// y = round-half-even(x / scale) as int8 (0 for an all-zero row), the fp32 steps of the reference.
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
// Index tensors: int32 or int64.
__device__ inline int64_t ldi(const void* p, int dt, int64_t i) {
  return dt == KOPE_I32 ? (int64_t) static_cast<const int32_t*>(p)[i] : static_cast<const int64_t*>(p)[i];
}
static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

__global__ void quant_kernel(kope_tensor x, int8_t* y, float* scale) {
  const int64_t M = x.shape[0], K = x.shape[1];
  for (int64_t m = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; m < M; m += (int64_t)gridDim.x * blockDim.x) {
    float amax = 0.0f;
    for (int64_t k = 0; k < K; ++k) amax = fmaxf(amax, fabsf((float)ldx(x.data, x.dtype, m * K + k)));
    const float sc = amax / 127.0f;
    scale[m] = sc;
    for (int64_t k = 0; k < K; ++k) {
      const float q = sc == 0.0f ? 0.0f : rintf((float)ldx(x.data, x.dtype, m * K + k) / sc);
      y[m * K + k] = (int8_t)(int)fminf(fmaxf(q, -127.0f), 127.0f);
    }
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->inputs[0].shape[0] == 0) return 0;
  quant_kernel<<<grid_for(a->inputs[0].shape[0]), 256, 0, s>>>(a->inputs[0], (int8_t*)a->outputs[0].data,
                                                               (float*)a->outputs[1].data);
  return (int)cudaGetLastError();
}
