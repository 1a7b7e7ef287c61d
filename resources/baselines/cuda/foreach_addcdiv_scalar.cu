// CUDA baseline for foreach_addcdiv_scalar: out[l] = self[l] + value * tensor1[l] / tensor2[l], one grid-stride
// launch per tensor of the list (inputs: all self, then all tensor1, then all tensor2).
#include "kope_cuda.h"

__global__ void addcdiv_kernel(const float* __restrict__ s, const float* __restrict__ t1, const float* __restrict__ t2,
                               float* __restrict__ out, float value, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    out[i] = s[i] + value * t1[i] / t2[i];
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int L = a->n_outputs;
  const float value = (float)kope_attr_or(a, "value", 1.0);
  for (int l = 0; l < L; ++l) {
    const int64_t n = a->outputs[l].numel;
    if (n == 0) continue;
    const int threads = 256;
    const int64_t want = (n + threads - 1) / threads;
    addcdiv_kernel<<<(int)(want < 65535 ? want : 65535), threads, 0, s>>>(
        (const float*)a->inputs[l].data, (const float*)a->inputs[L + l].data, (const float*)a->inputs[2 * L + l].data,
        (float*)a->outputs[l].data, value, n);
  }
  return (int)cudaGetLastError();
}
