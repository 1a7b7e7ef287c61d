// thought: resolve TensorFlow's begins, ends and masks on the host; a warp takes one output row at a time (its input base computed once, no per-element divisions), its lanes writing consecutive outputs (coalesced stores) from x[base + b3 + j3 s3]; where s3 is 1 and the rows and begins are 16-byte aligned the rows move as uint4 vectors; values move as raw bits, so every dtype and special value is exact
#include "kope_cuda.h"

#include <cstdint>

namespace {

// Lengths and offsets in units of V (the element, or a 16-byte vector of elements when s3 == 1 allows it).
struct Slice {
  int64_t is[3];   // x's strides of axes 0..2
  int64_t b[4], s[4];
  int64_t O[3];    // y's outer lengths
  int64_t rowLen;  // y's row, in V
};

template <class V>
__global__ void __launch_bounds__(256) slice_rows(const V* __restrict__ x, V* __restrict__ y, Slice p, int64_t rows) {
  const int lane = threadIdx.x & 31;
  const int64_t warps = (int64_t)gridDim.x * (blockDim.x >> 5);
  for (int64_t r = blockIdx.x * (int64_t)(blockDim.x >> 5) + (threadIdx.x >> 5); r < rows; r += warps) {
    const int64_t j2 = r % p.O[2], j1 = r / p.O[2] % p.O[1], j0 = r / p.O[2] / p.O[1];
    const V* src = x + (p.b[0] + j0 * p.s[0]) * p.is[0] + (p.b[1] + j1 * p.s[1]) * p.is[1] +
                   (p.b[2] + j2 * p.s[2]) * p.is[2] + p.b[3];
    V* dst = y + r * p.rowLen;
    const int64_t s3 = p.s[3];
    for (int64_t j = lane; j < p.rowLen; j += 32) dst[j] = __ldg(src + j * s3);
  }
}

// TensorFlow's begin and length of one axis (begin_mask and end_mask only); -1 where the stride is 0.
int64_t axis_range(int64_t dim, double bd, double ed, int64_t s, int bm, int em, int64_t* begin) {
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

template <class V> int launch(const kope_args* a, Slice p, int64_t per, cudaStream_t st) {
  // per: elements in one V (1, or 16 / element size)
  for (int k = 0; k < 3; ++k) p.is[k] /= per;
  p.b[3] /= per;
  p.rowLen /= per;
  const int64_t rows = p.O[0] * p.O[1] * p.O[2];
  const int64_t want = (rows + 7) / 8;
  const int blocks = (int)(want < 132 * 16 ? want : 132 * 16);
  slice_rows<V><<<blocks, 256, 0, st>>>((const V*)a->inputs[0].data, (V*)a->outputs[0].data, p, rows);
  return (int)cudaGetLastError();
}

template <class T> int run(const kope_args* a, const Slice& p, cudaStream_t st) {
  constexpr int64_t per = 16 / (int64_t)sizeof(T);
  if (p.s[3] == 1 && p.is[2] % per == 0 && p.b[3] % per == 0 && p.rowLen % per == 0) return launch<uint4>(a, p, per, st);
  return launch<T>(a, p, 1, st);
}

}  // namespace

extern "C" int kope_cuda_kernel(const kope_args* a, cudaStream_t st) {
  const kope_tensor &x = a->inputs[0], &y = a->outputs[0];
  if (x.ndim != 4 || y.ndim != 4 || x.dtype != y.dtype) return 1;
  static const char* const bn[4] = {"b0", "b1", "b2", "b3"}, * const en[4] = {"e0", "e1", "e2", "e3"},
                           * const sn[4] = {"s0", "s1", "s2", "s3"};
  const int bmask = (int)kope_attr_or(a, "begin_mask", 0), emask = (int)kope_attr_or(a, "end_mask", 0);
  Slice p;
  for (int k = 0; k < 4; ++k) {
    p.s[k] = (int64_t)kope_attr_or(a, sn[k], 1);
    const int64_t n = axis_range(x.shape[k], kope_attr_or(a, bn[k], 0), kope_attr_or(a, en[k], 1e18), p.s[k],
                                 (bmask >> k) & 1, (emask >> k) & 1, &p.b[k]);
    if (n < 0) return 2;
    if (n != y.shape[k]) return 3;
  }
  if (y.numel == 0) return 0;
  p.is[2] = x.shape[3];
  p.is[1] = p.is[2] * x.shape[2];
  p.is[0] = p.is[1] * x.shape[1];
  for (int k = 0; k < 3; ++k) p.O[k] = y.shape[k];
  p.rowLen = y.shape[3];
  switch (x.dtype) {
    case KOPE_F32: case KOPE_I32: return run<uint32_t>(a, p, st);
    case KOPE_F16: case KOPE_BF16: return run<uint16_t>(a, p, st);
    case KOPE_I8: case KOPE_U8: return run<uint8_t>(a, p, st);
    default: return 1;
  }
}
