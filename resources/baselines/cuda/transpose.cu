// CUDA baseline for transpose: one thread per output element, y[j0, j1, j2, j3] = x at sum_k j_k * stride(perm[k]),
// the element's bits copied (4, 2 or 1 byte: fp32, fp16/bf16, int8), so every value moves unchanged.
#include "kope_cuda.h"

#include <cstdint>

struct Perm {
  int64_t is[4];   // x's strides of the input axis at each output position
  int64_t ys[4];   // y's lengths
};

template <class T> __global__ void transpose_kernel(const T* x, T* y, Perm p, int64_t n) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < n; o += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = o, src = 0;
    for (int k = 3; k >= 0; --k) {
      src += (r % p.ys[k]) * p.is[k];
      r /= p.ys[k];
    }
    y[o] = x[src];
  }
}

static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

template <class T> static int run(const kope_args* a, const Perm& p, cudaStream_t s) {
  const int64_t n = a->outputs[0].numel;
  transpose_kernel<T><<<grid_for(n), 256, 0, s>>>((const T*)a->inputs[0].data, (T*)a->outputs[0].data, p, n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t s) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 4 || y.ndim != 4) return 1;
  static const char* const names[4] = {"p0", "p1", "p2", "p3"};
  int64_t xs[4], perm[4];
  xs[3] = 1;
  for (int k = 2; k >= 0; --k) xs[k] = xs[k + 1] * x.shape[k + 1];
  Perm p;
  for (int k = 0; k < 4; ++k) {
    perm[k] = (int64_t)kope_attr_or(a, names[k], k);
    if (perm[k] < 0 || perm[k] > 3) return 2;
    p.is[k] = xs[perm[k]];
    p.ys[k] = y.shape[k];
    if (y.shape[k] != x.shape[perm[k]]) return 3;
  }
  if (y.numel == 0) return 0;
  switch (x.dtype) {
    case KOPE_F32: return run<uint32_t>(a, p, s);
    case KOPE_F16: case KOPE_BF16: return run<uint16_t>(a, p, s);
    case KOPE_I8: case KOPE_U8: return run<uint8_t>(a, p, s);
    default: return 1;
  }
}
