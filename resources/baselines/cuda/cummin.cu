// CUDA baseline for cummin: one thread per (a, b) scanning r in order: a NaN is taken and kept, otherwise
// x <= running min takes the later index (ATen's CPU rule); the value is the element at that index.
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

__global__ void cummin_kernel(kope_tensor x, kope_tensor values, int64_t* indices) {
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < A * B; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = o / B, b = o % B;
    double best = 0;
    int64_t at = 0;
    for (int64_t r = 0; r < R; ++r) {
      const int64_t e = (a * R + r) * B + b;
      const double v = ldx(x.data, x.dtype, e);
      if (r == 0 || v != v || v <= best) {
        best = v;
        at = r;
      }
      stx(values.data, values.dtype, e, best);
      indices[e] = at;
    }
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor& x = a->inputs[0];
  if (x.shape[0] * x.shape[2] == 0) return 0;
  cummin_kernel<<<grid_for(x.shape[0] * x.shape[2]), 256, 0, s>>>(x, a->outputs[0], (int64_t*)a->outputs[1].data);
  return (int)cudaGetLastError();
}
