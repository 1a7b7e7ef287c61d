// thought: out = self by one device-to-device copy, then one thread per src element adds into its slot with a hardware fp32 atomicAdd (duplicates are common, so every add must be atomic; the order is free within the task's threshold and IEEE specials do not depend on it), index type fixed at compile time
#include "kope_cuda.h"

template <class I>
__global__ void scatter_add(const I* __restrict__ index, const float* __restrict__ src, float* __restrict__ out,
                            int64_t R, int64_t J, int64_t B, int64_t n) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t b = e % B, a = e / (J * B);
    atomicAdd(out + (a * R + (int64_t)index[e]) * B + b, src[e]);
  }
}

template <class I> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &self = a->inputs[0], &index = a->inputs[1];
  float* out = (float*)a->outputs[0].data;
  if (self.numel > 0) {
    const cudaError_t e =
        cudaMemcpyAsync(out, self.data, (size_t)self.numel * sizeof(float), cudaMemcpyDeviceToDevice, s);
    if (e != cudaSuccess) return (int)e;
  }
  const int64_t n = index.numel;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  scatter_add<I><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>((const I*)index.data, (const float*)a->inputs[2].data,
                                                                  out, self.shape[1], index.shape[1], self.shape[2], n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  return a->inputs[1].dtype == KOPE_I64 ? run<int64_t>(a, s) : run<int32_t>(a, s);
}
