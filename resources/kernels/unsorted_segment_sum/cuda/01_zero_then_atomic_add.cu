// thought: zero the output with cudaMemsetAsync, then one thread per data element adds it into its segment's row with a hardware fp32 atomicAdd (many rows share a segment; consecutive threads take consecutive columns of a row, so a row's adds coalesce), negative ids skipped as TensorFlow drops them
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
  if (a->outputs[0].numel > 0) {
    const cudaError_t e = cudaMemsetAsync(out, 0, (size_t)a->outputs[0].numel * sizeof(float), s);
    if (e != cudaSuccess) return (int)e;
  }
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  segment_add<I><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>((const float*)a->inputs[0].data,
                                                                  (const I*)a->inputs[1].data, out, D, n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  return a->inputs[1].dtype == KOPE_I64 ? run<int64_t>(a, s) : run<int32_t>(a, s);
}
