// CUDA baseline for swi_glu: x[M, 2H] -> y[M, H] = silu(x[:, :H]) * x[:, H:], a plain grid-stride kernel.
#include "kope_cuda.h"

__global__ void swi_glu_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t M, int64_t H) {
  const int64_t n = M * H;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t m = i / H, h = i % H;
    const float a = x[m * 2 * H + h], b = x[m * 2 * H + H + h];
    y[i] = a / (1.0f + expf(-a)) * b;
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int64_t M = a->outputs[0].shape[0], H = a->outputs[0].shape[1];
  if (M * H == 0) return 0;
  const int threads = 256;
  const int64_t want = (M * H + threads - 1) / threads;
  swi_glu_kernel<<<(int)(want < 65535 ? want : 65535), threads, 0, s>>>((const float*)a->inputs[0].data,
                                                                        (float*)a->outputs[0].data, M, H);
  return (int)cudaGetLastError();
}
