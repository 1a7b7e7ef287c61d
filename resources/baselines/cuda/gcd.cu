// CUDA baseline for gcd: one thread per element, Euclid's algorithm on the unsigned magnitudes (int32 or int64).
#include "kope_cuda.h"

__global__ void gcd_kernel(const void* x, const void* y, void* out, int64_t n, bool wide) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t p = wide ? ((const int64_t*)x)[i] : ((const int32_t*)x)[i];
    const int64_t q = wide ? ((const int64_t*)y)[i] : ((const int32_t*)y)[i];
    uint64_t u = p < 0 ? 0 - (uint64_t)p : (uint64_t)p, v = q < 0 ? 0 - (uint64_t)q : (uint64_t)q;
    while (v != 0) {
      const uint64_t t = u % v;
      u = v;
      v = t;
    }
    if (wide) ((int64_t*)out)[i] = (int64_t)u;
    else ((int32_t*)out)[i] = (int32_t)u;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  gcd_kernel<<<(int)(want < 65535 ? want : 65535), 256, 0, s>>>(a->inputs[0].data, a->inputs[1].data,
                                                                a->outputs[0].data, n, a->outputs[0].dtype == KOPE_I64);
  return (int)cudaGetLastError();
}
