// CUDA baseline for strided_slice: one thread per output element, y[j] = x[sum_k (b_k + j_k s_k) * stride_k] with
// TensorFlow's begins resolved on the host; the element's bits copied (4, 2 or 1 byte), so every value moves unchanged.
#include "kope_cuda.h"

#include <cstdint>

struct Slice {
  int64_t b[4], s[4], is[4], O[4];
};

template <class T> __global__ void slice_kernel(const T* x, T* y, Slice p, int64_t n) {
  for (int64_t o = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; o < n; o += (int64_t)gridDim.x * blockDim.x) {
    int64_t r = o, src = 0;
    for (int k = 3; k >= 0; --k) {
      src += (p.b[k] + (r % p.O[k]) * p.s[k]) * p.is[k];
      r /= p.O[k];
    }
    y[o] = x[src];
  }
}

static int64_t axis_range(int64_t dim, double bd, double ed, int64_t s, int bm, int em, int64_t* begin) {
  if (s == 0) return -1;
  int64_t b = (int64_t)bd, e = (int64_t)ed;
  const int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
  if (bm) b = s > 0 ? 0 : dim - 1;
  else {
    if (b < 0) b += dim;
    b = b < lo ? lo : (b > hi ? hi : b);
  }
  if (em) e = s > 0 ? dim : -1;
  else {
    if (e < 0) e += dim;
    e = e < lo ? lo : (e > hi ? hi : e);
  }
  *begin = b;
  const int64_t span = s > 0 ? e - b : b - e, step = s > 0 ? s : -s;
  return span <= 0 ? 0 : (span + step - 1) / step;
}

static inline int grid_for(int64_t n) {
  const int64_t b = (n + 255) / 256;
  return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

template <class T> static int run(const kope_args* a, const Slice& p, cudaStream_t st) {
  const int64_t n = a->outputs[0].numel;
  slice_kernel<T><<<grid_for(n), 256, 0, st>>>((const T*)a->inputs[0].data, (T*)a->outputs[0].data, p, n);
  return (int)cudaGetLastError();
}

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 4 || y.ndim != 4) return 1;
  static const char* const bn[4] = {"b0", "b1", "b2", "b3"}, * const en[4] = {"e0", "e1", "e2", "e3"},
                           * const sn[4] = {"s0", "s1", "s2", "s3"};
  const int bmask = (int)kope_attr_or(a, "begin_mask", 0), emask = (int)kope_attr_or(a, "end_mask", 0);
  Slice p;
  p.is[3] = 1;
  for (int k = 2; k >= 0; --k) p.is[k] = p.is[k + 1] * x.shape[k + 1];
  for (int k = 0; k < 4; ++k) {
    p.s[k] = (int64_t)kope_attr_or(a, sn[k], 1);
    const int64_t n = axis_range(x.shape[k], kope_attr_or(a, bn[k], 0), kope_attr_or(a, en[k], 1e18), p.s[k],
                                 (bmask >> k) & 1, (emask >> k) & 1, &p.b[k]);
    if (n < 0) return 2;
    if (n != y.shape[k]) return 3;
    p.O[k] = y.shape[k];
  }
  if (y.numel == 0) return 0;
  switch (x.dtype) {
    case KOPE_F32: return run<uint32_t>(a, p, st);
    case KOPE_F16: case KOPE_BF16: return run<uint16_t>(a, p, st);
    case KOPE_I8: case KOPE_U8: return run<uint8_t>(a, p, st);
    default: return 1;
  }
}
