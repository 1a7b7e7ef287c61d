// thought: a gather is a copy: one thread per output element moves the element's bits (4 or 2 bytes, never converted, so NaN payloads, -0 and denormals come out exactly) with the index type fixed at compile time; consecutive threads write consecutive outputs (coalesced stores, the reads go where the indices say)
#include "kope_cuda.h"

template <class T, class I>
__global__ void gather_bits(const T* __restrict__ x, const I* __restrict__ index, T* __restrict__ out, int64_t R,
                            int64_t J, int64_t B, int64_t n) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < n; o += (int64_t)gridDim.x * blockDim.x) {
    const int64_t b = o % B, a = o / (J * B);
    out[o] = x[(a * R + (int64_t)index[o]) * B + b];
  }
}

template <class T, class I> static int run(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &index = a->inputs[1];
  const int64_t n = a->outputs[0].numel;
  if (n == 0) return 0;
  const int64_t want = (n + 255) / 256;
  gather_bits<T, I><<<(int)(want < 8192 ? want : 8192), 256, 0, s>>>((const T*)x.data, (const I*)index.data,
                                                                     (T*)a->outputs[0].data, x.shape[1], index.shape[1],
                                                                     x.shape[2], n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const bool wide = a->inputs[0].dtype == KOPE_F32;
  const bool i64 = a->inputs[1].dtype == KOPE_I64;
  if (wide) return i64 ? run<uint32_t, int64_t>(a, s) : run<uint32_t, int32_t>(a, s);
  return i64 ? run<uint16_t, int64_t>(a, s) : run<uint16_t, int32_t>(a, s);
}
