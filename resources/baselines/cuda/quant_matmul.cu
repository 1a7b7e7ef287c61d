// CUDA baseline for quant_matmul: one thread per output element: the exact int32 sum over K of x1 * x2 plus the
// bias, then * scale[n] * pertoken_scale[m] in fp32, rounded once to the output's dtype.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ inline void stx(void* p, int dt, int64_t i, float v) {
  switch (dt) {
    case KOPE_F16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case KOPE_BF16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(p)[i] = v; break;
  }
}

__global__ void qmm_naive(const int8_t* x1, const int8_t* x2, const float* scale, const float* pts, const int32_t* bias,
                          kope_tensor out, int64_t K) {
  const int64_t M = out.shape[0], N = out.shape[1];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < M * N; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t m = o / N, n = o % N;
    int32_t acc = bias[n];
    for (int64_t k = 0; k < K; ++k) acc += (int32_t)x1[m * K + k] * (int32_t)x2[k * N + n];
    stx(out.data, out.dtype, o, (float)acc * scale[n] * pts[m]);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t b = (n + 255) / 256;
  qmm_naive<<<(int)(b > 65535 ? 65535 : b), 256, 0, s>>>((const int8_t*)a->inputs[0].data, (const int8_t*)a->inputs[1].data,
                                                        (const float*)a->inputs[2].data, (const float*)a->inputs[3].data,
                                                        (const int32_t*)a->inputs[4].data, a->outputs[0],
                                                        a->inputs[0].shape[1]);
  return (int)cudaGetLastError();
}
