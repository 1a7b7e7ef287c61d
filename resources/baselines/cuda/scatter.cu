// CUDA baseline for scatter (reduce add): out = self element by element, then one thread per src element adds it
// into its slot with atomicAdd (duplicate indices all accumulate).
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

__global__ void copy_kernel(const float* self, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    out[i] = self[i];
}

__global__ void add_kernel(kope_tensor self, kope_tensor index, const float* src, float* out) {
  const int64_t R = self.shape[1], B = self.shape[2], J = index.shape[1];
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < index.numel;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t a = e / (J * B), b = e % B;
    atomicAdd(out + (a * R + ldi(index.data, index.dtype, e)) * B + b, src[e]);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  float* out = (float*)a->outputs[0].data;
  if (a->inputs[0].numel > 0)
    copy_kernel<<<grid_for(a->inputs[0].numel), 256, 0, s>>>((const float*)a->inputs[0].data, out, a->inputs[0].numel);
  if (a->inputs[1].numel > 0)
    add_kernel<<<grid_for(a->inputs[1].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], (const float*)a->inputs[2].data,
                                                            out);
  return (int)cudaGetLastError();
}
