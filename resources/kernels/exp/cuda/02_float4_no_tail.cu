// thought: exp is memory-bound: float4 loads and stores over the whole tensor in one grid-stride loop, four expf per thread per step
// flaw: the vector loop covers n / 4 * 4 elements and nothing handles the last n % 4 (N = 1, 999, 4099 leave outputs unwritten)
#include "kope_cuda.h"

__global__ void exp_vec4(const float4* __restrict__ x, float4* __restrict__ y, int64_t n4) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n4; i += (int64_t)gridDim.x * blockDim.x) {
    float4 v = x[i];
    v.x = expf(v.x);
    v.y = expf(v.y);
    v.z = expf(v.z);
    v.w = expf(v.w);
    y[i] = v;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n4 = a->inputs[0].numel / 4;
  if (n4 == 0) return 0;
  const int64_t blocks = (n4 + 255) / 256;
  exp_vec4<<<(int)(blocks < 8192 ? blocks : 8192), 256, 0, s>>>((const float4*)a->inputs[0].data,
                                                               (float4*)a->outputs[0].data, n4);
  return (int)cudaGetLastError();
}
