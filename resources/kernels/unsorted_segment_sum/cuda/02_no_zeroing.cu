// thought: one thread per data element adds it into its segment's row with a hardware fp32 atomicAdd, negative ids skipped; device memory from cudaMalloc starts zeroed, so no memset pass over the output is needed
// flaw: cudaMalloc does not zero memory, and kope hands the kernel an output it filled with NaN so an unwritten element never passes: every sum starts from whatever the buffer held (all cases)
#include "kope_cuda.h"

template <class I>
__global__ void segment_add(const float* __restrict__ data, const I* __restrict__ ids, float* __restrict__ out,
                            int64_t D, int64_t n) {
  for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < n; e += (int64_t)gridDim.x * blockDim.x) {
    const int64_t row = e / D, s = (int64_t)ids[row];
    if (s >= 0) atomicAdd(out + s * D + (e - row * D), data[e]);
  }
}

template <class I> static int run(const kope_args* a, cudaStream_t s) {
  const int64_t n = a->inputs[0].numel, D = a->inputs[0].shape[1];
  float* out = (float*)a->outputs[0].data;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  segment_add<I><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>((const float*)a->inputs[0].data,
                                                                  (const I*)a->inputs[1].data, out, D, n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  return a->inputs[1].dtype == KOPE_I64 ? run<int64_t>(a, s) : run<int32_t>(a, s);
}
