// CUDA baseline for foreach_norm: out[l] = (sum |x[l]|^ord)^(1/ord); one block of 256 threads per tensor,
// a grid-stride partial sum per thread in double, then a shared-memory tree reduction.
#include "kope_cuda.h"

__global__ void norm_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t n, double ord) {
  __shared__ double part[256];
  double acc = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
    double v = fabs((double)x[i]);
    acc += ord == 1.0 ? v : ord == 2.0 ? v * v : pow(v, ord);
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if ((int)threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    double t = part[0];
    out[0] = (float)(ord == 1.0 ? t : ord == 2.0 ? sqrt(t) : pow(t, 1.0 / ord));
  }
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const int L = a->n_outputs;
  const double ord = kope_attr_or(a, "ord", 2.0);
  for (int l = 0; l < L; ++l)
    norm_kernel<<<1, 256, 0, s>>>((const float*)a->inputs[l].data, (float*)a->outputs[l].data, a->inputs[l].numel, ord);
  return (int)cudaGetLastError();
}
