// CUDA baseline for sigmoid: a plain grid-stride kernel, one thread per element, fp32 math.
#include "kope_cuda.h"

__global__ void sigmoid_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    float v = x[i];
    y[i] = 1.0f / (1.0f + expf(-v));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->inputs[0].numel;
  if (n == 0) return 0;
  const int threads = 256;
  const int blocks = (int)((n + threads - 1) / threads < 65535 ? (n + threads - 1) / threads : 65535);
  sigmoid_kernel<<<blocks, threads, 0, s>>>((const float*)a->inputs[0].data, (float*)a->outputs[0].data, n);
  return (int)cudaGetLastError();
}
