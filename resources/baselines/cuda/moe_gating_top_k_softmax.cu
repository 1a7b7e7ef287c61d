// CUDA baseline for moe_gating_top_k_softmax: one thread per token row: the row's max and softmax denominator in
// fp32, then K plain scans for the largest logit not yet taken (ties to the lower expert), y = exp(x - max) / sum.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>

__device__ inline float ldx(const void* p, int dt, int64_t i) {
  switch (dt) {
    case KOPE_F16: return __half2float(static_cast<const __half*>(p)[i]);
    case KOPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}
__device__ inline void stx(void* p, int dt, int64_t i, float v) {
  switch (dt) {
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(p)[i] = v; break;
  }
}

__global__ void gating_naive(kope_tensor x, kope_tensor y, int32_t* expert, int32_t* row_idx) {
  const int64_t T = x.shape[0], E = x.shape[1], K = y.shape[1];
  for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < T; t += (int64_t)gridDim.x * blockDim.x) {
    float mx = -INFINITY, sum = 0.0f;
    for (int64_t e = 0; e < E; ++e) mx = fmaxf(mx, ldx(x.data, x.dtype, t * E + e));
    for (int64_t e = 0; e < E; ++e) sum += expf(ldx(x.data, x.dtype, t * E + e) - mx);
    for (int64_t k = 0; k < K; ++k) {
      int64_t bi = -1;
      float best = 0.0f;
      for (int64_t e = 0; e < E; ++e) {
        bool taken = false;
        for (int64_t j = 0; j < k; ++j) taken |= expert[t * K + j] == (int32_t)e;
        const float v = ldx(x.data, x.dtype, t * E + e);
        if (!taken && (bi < 0 || v > best)) best = v, bi = e;
      }
      stx(y.data, y.dtype, t * K + k, expf(best - mx) / sum);
      expert[t * K + k] = (int32_t)bi;
      row_idx[t * K + k] = (int32_t)(k * T + t);
    }
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t T = a->inputs[0].shape[0];
  if (a->outputs[0].shape[1] > a->inputs[0].shape[1]) return (int)cudaErrorInvalidValue;
  if (T == 0) return 0;
  const int64_t b = (T + 255) / 256;
  gating_naive<<<(int)(b > 65535 ? 65535 : b), 256, 0, s>>>(a->inputs[0], a->outputs[0], (int32_t*)a->outputs[1].data,
                                                           (int32_t*)a->outputs[2].data);
  return (int)cudaGetLastError();
}
