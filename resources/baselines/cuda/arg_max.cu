// CUDA baseline for arg_max: one thread per output (a, b) scanning r in order; NaN is the maximum and the first NaN
// wins, otherwise the first of equal maxima (torch.argmax).
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

__global__ void arg_max_kernel(kope_tensor x, int64_t* out) {
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < A * B; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = o / B, b = o % B;
    double best = 0;
    int64_t at = 0;
    for (int64_t r = 0; r < R; ++r) {
      const double v = ldx(x.data, x.dtype, (a * R + r) * B + b);
      if (r == 0 || (best == best && (v != v || v > best))) {
        best = v;
        at = r;
      }
    }
    out[o] = at;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  if (a->outputs[0].numel == 0) return 0;
  arg_max_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(a->inputs[0], (int64_t*)a->outputs[0].data);
  return (int)cudaGetLastError();
}
