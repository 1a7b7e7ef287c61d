// CUDA baseline for weight_quant_batch_matmul: one thread per output element: bias[n] + a plain loop over K of
// x[m, k] * (weight[k, n] + offset[n]) * scale[n], in fp32, rounded once to x's dtype.
#include "kope_cuda.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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

__global__ void wqmm_naive(kope_tensor x, const int8_t* w, kope_tensor scale, kope_tensor offset, kope_tensor bias,
                           kope_tensor out) {
  const int64_t M = x.shape[0], K = x.shape[1], N = out.shape[1];
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < M * N; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t m = o / N, n = o % N;
    const float s = ldx(scale.data, scale.dtype, n), f = ldx(offset.data, offset.dtype, n);
    float acc = ldx(bias.data, bias.dtype, n);
    for (int64_t k = 0; k < K; ++k) acc += ldx(x.data, x.dtype, m * K + k) * (((float)w[k * N + n] + f) * s);
    stx(out.data, out.dtype, o, acc);
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t b = (n + 255) / 256;
  wqmm_naive<<<(int)(b > 65535 ? 65535 : b), 256, 0, s>>>(a->inputs[0], (const int8_t*)a->inputs[1].data, a->inputs[2],
                                                         a->inputs[3], a->inputs[4], a->outputs[0]);
  return (int)cudaGetLastError();
}
