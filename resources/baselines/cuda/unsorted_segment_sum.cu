// CUDA baseline for unsorted_segment_sum: the output zeroed element by element, then one thread per data element
// adds it into its segment's row with atomicAdd; negative ids drop their rows (TensorFlow's rule).
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

__global__ void zero_kernel(float* out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    out[i] = 0;
}

__global__ void add_kernel(kope_tensor data, kope_tensor ids, float* out) {
  const int64_t D = data.shape[1];
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < data.numel;
       e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t s = ldi(ids.data, ids.dtype, e / D);
    if (s >= 0) atomicAdd(out + s * D + e % D, ((const float*)data.data)[e]);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  float* out = (float*)a->outputs[0].data;
  if (a->outputs[0].numel > 0) zero_kernel<<<grid_for(a->outputs[0].numel), 256, 0, s>>>(out, a->outputs[0].numel);
  if (a->inputs[0].numel > 0) add_kernel<<<grid_for(a->inputs[0].numel), 256, 0, s>>>(a->inputs[0], a->inputs[1], out);
  return (int)cudaGetLastError();
}
