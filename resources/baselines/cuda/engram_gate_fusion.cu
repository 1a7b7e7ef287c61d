// CUDA baseline for engram_gate_fusion: one thread per (token, stream) row, plain loops in fp32: the two RMS norms'
// sums, the weighted dot product, the gate, then y = h + gate v.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ inline float ld(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void st(void* p, int dt, int64_t i, float v) {
  switch (dt) {
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(p)[i] = v; break;
  }
}

__global__ void engram_rows(kope_tensor h, kope_tensor k, kope_tensor v, const float* wh, const float* wk, kope_tensor y,
                            float* gate, float eps) {
  const int64_t S = h.shape[1], D = h.shape[2], rows = h.shape[0] * S;
  for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < rows; r += (int64_t)gridDim.x * blockDim.x) {
    const int64_t t = r / S, s = r % S;
    float sh = 0.0f, sk = 0.0f;
    for (int64_t d = 0; d < D; ++d) {
      const float a = ld(h.data, h.dtype, r * D + d), b = ld(k.data, k.dtype, r * D + d);
      sh += a * a;
      sk += b * b;
    }
    const float rh = 1.0f / sqrtf(sh / (float)D + eps), rk = 1.0f / sqrtf(sk / (float)D + eps);
    float g = 0.0f;
    for (int64_t d = 0; d < D; ++d)
      g += (ld(h.data, h.dtype, r * D + d) * rh * wh[s * D + d]) * (ld(k.data, k.dtype, r * D + d) * rk * wk[s * D + d]);
    g /= sqrtf((float)D);
    const float gp = g > 0.0f ? sqrtf(fmaxf(g, 1e-6f)) : g < 0.0f ? -sqrtf(fmaxf(-g, 1e-6f)) : g;
    const float gt = 1.0f / (1.0f + expf(-gp));
    gate[r] = gt;
    for (int64_t d = 0; d < D; ++d)
      st(y.data, y.dtype, r * D + d, ld(h.data, h.dtype, r * D + d) + gt * ld(v.data, v.dtype, t * D + d));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t rows = a->inputs[0].shape[0] * a->inputs[0].shape[1];
  if (rows == 0) return 0;
  const int64_t b = (rows + 127) / 128;
  engram_rows<<<(int)(b < 65535 ? b : 65535), 128, 0, s>>>(a->inputs[0], a->inputs[1], a->inputs[2],
                                                            (const float*)a->inputs[3].data,
                                                            (const float*)a->inputs[4].data, a->outputs[0],
                                                            (float*)a->outputs[1].data,
                                                            (float)kope_attr_or(a, "epsilon", 1e-6));
  return (int)cudaGetLastError();
}
