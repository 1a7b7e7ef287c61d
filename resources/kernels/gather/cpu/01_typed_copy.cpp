// thought: a gather is a copy: move element bits (4 or 2 bytes) with the index type fixed at compile time, rows of B contiguous, instead of converting every element through double
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

template <class T, class I> static int run(const kope_args* a) {
  const kope_tensor &x = a->inputs[0], &index = a->inputs[1];
  const T* xp = static_cast<const T*>(x.data);
  const I* ip = static_cast<const I*>(index.data);
  T* op = static_cast<T*>(a->outputs[0].data);
  const int64_t A = x.shape[0], R = x.shape[1], B = x.shape[2], J = index.shape[1];
  if (B == 1) {
    for (int64_t i = 0; i < A; ++i) {
      const T* __restrict src = xp + i * R;
      const I* __restrict idx = ip + i * J;
      T* __restrict dst = op + i * J;
      for (int64_t j = 0; j < J; ++j) dst[j] = src[idx[j]];
    }
    return 0;
  }
  for (int64_t i = 0; i < A; ++i)
    for (int64_t j = 0; j < J; ++j) {
      const I* __restrict idx = ip + (i * J + j) * B;
      T* __restrict dst = op + (i * J + j) * B;
      const T* __restrict src = xp + i * R * B;
      for (int64_t b = 0; b < B; ++b) dst[b] = src[(int64_t)idx[b] * B + b];
    }
  return 0;
}

int kope_kernel(const kope_args* a) {
  const bool wide = a->inputs[0].dtype == KOPE_F32;
  const bool i64 = a->inputs[1].dtype == KOPE_I64;
  if (wide) return i64 ? run<uint32_t, int64_t>(a) : run<uint32_t, int32_t>(a);
  return i64 ? run<uint16_t, int64_t>(a) : run<uint16_t, int32_t>(a);
}
