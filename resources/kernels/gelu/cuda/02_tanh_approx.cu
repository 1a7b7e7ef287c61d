// thought: the tanh form 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))) with the fast tanhf avoids erf entirely; grid-stride, one element per thread
// flaw: that is a different function (the tanh approximation, not exact GELU): 0.2% relative error at x = -2, 10% at -3 and 80% at -5 (-2.3e-7 instead of -1.4e-6)
#include "kope_cuda.h"

__global__ void gelu_tanh(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const float v = x[i];
    const float u = 0.7978845608028654f * (v + 0.044715f * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(u));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->inputs[0].numel;
  if (n == 0) return 0;
  const int64_t blocks = (n + 255) / 256;
  gelu_tanh<<<(int)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>((const float*)a->inputs[0].data,
                                                                (float*)a->outputs[0].data, n);
  return (int)cudaGetLastError();
}
