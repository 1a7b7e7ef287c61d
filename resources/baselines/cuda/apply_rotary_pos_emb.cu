// CUDA baseline for apply_rotary_pos_emb: one thread per output element, out = x * cos + rotate_half(x) * sin in
// fp32, one launch for q and one for k, any floating storage type.
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

__global__ void rope_kernel(kope_tensor x, kope_tensor c, kope_tensor sn, kope_tensor o) {
  const int64_t S = x.shape[1], N = x.shape[2], D = x.shape[3], H = D / 2;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < x.numel; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t d = i % D, t = (i / (D * N)) % S;
    const float rot = d < H ? -(float)ldx(x.data, x.dtype, i + H) : (float)ldx(x.data, x.dtype, i - H);
    const float v = (float)ldx(x.data, x.dtype, i) * (float)ldx(c.data, c.dtype, t * D + d) +
                    rot * (float)ldx(sn.data, sn.dtype, t * D + d);
    stx(o.data, o.dtype, i, v);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  for (int t = 0; t < 2; ++t)
    if (a->inputs[t].numel > 0)
      rope_kernel<<<grid_for(a->inputs[t].numel), 256, 0, s>>>(a->inputs[t], a->inputs[2], a->inputs[3], a->outputs[t]);
  return (int)cudaGetLastError();
}
