// CUDA baseline for masked_scale: y = x * mask * scale, a plain grid-stride kernel.
#include "kope_cuda.h"

__global__ void masked_scale_kernel(const float* __restrict__ x, const uint8_t* __restrict__ mask, float* __restrict__ y,
                                    float scale, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    y[i] = x[i] * (float)mask[i] * scale;
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->inputs[0].numel;
  if (n == 0) return 0;
  const float scale = (float)kope_attr_or(a, "scale", 1.0);
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads < 65535 ? (n + threads - 1) / threads : 65535);
  masked_scale_kernel<<<blocks, threads, 0, s>>>((const float*)a->inputs[0].data, (const uint8_t*)a->inputs[1].data,
                                                 (float*)a->outputs[0].data, scale, n);
  return (int)cudaGetLastError();
}
