// thought: resolve each axis to (begin, count, step) once; trailing axes taken whole merge into one contiguous run, so unit-stride slices are memcpy of long runs, and the innermost strided or reversed axis is a tight gather loop per element type
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"
#include <cstring>

namespace {

struct Axis {
  int64_t begin, count, step;
};

// TensorFlow's rules (begin_mask and end_mask only): negative indices gain the length, then clamp to [0, dim]
// for a positive step and to [-1, dim - 1] for a negative one.
bool resolve(int64_t dim, int64_t b, int64_t e, int64_t s, bool bm, bool em, Axis& ax) {
  if (s == 0) return false;
  const int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? dim : dim - 1;
  if (bm) b = s > 0 ? 0 : dim - 1;
  else b = b < 0 ? b + dim : b, b = b < lo ? lo : (b > hi ? hi : b);
  if (em) e = s > 0 ? dim : -1;
  else e = e < 0 ? e + dim : e, e = e < lo ? lo : (e > hi ? hi : e);
  const int64_t span = s > 0 ? e - b : b - e, step = s > 0 ? s : -s;
  ax = {b, span <= 0 ? 0 : (span + step - 1) / step, s};
  return true;
}

template <typename E>
void copy(const E* __restrict x, E* __restrict y, const Axis* ax, const int64_t* is, int inner, int64_t run) {
  // Axes before `inner` are looped; axis `inner` is a gather of `count` elements (or, with step 1, one memcpy
  // of count * run elements when everything after it is whole).
  int64_t len[3] = {1, 1, 1}, off[3] = {0, 0, 0}, str[3] = {0, 0, 0};
  for (int k = 0; k < inner; ++k) {
    len[3 - inner + k] = ax[k].count;
    off[3 - inner + k] = ax[k].begin * is[k];
    str[3 - inner + k] = ax[k].step * is[k];
  }
  const Axis& in = ax[inner];
  const int64_t base0 = off[0] + off[1] + off[2] + in.begin * is[inner];
  const int64_t step = in.step * is[inner], n = in.count;
  for (int64_t i0 = 0; i0 < len[0]; ++i0)
    for (int64_t i1 = 0; i1 < len[1]; ++i1)
      for (int64_t i2 = 0; i2 < len[2]; ++i2) {
        const E* src = x + base0 + i0 * str[0] + i1 * str[1] + i2 * str[2];
        if (run > 1 || step == 1) {
          if (step == run) {  // contiguous: one copy
            std::memcpy(y, src, sizeof(E) * n * run);
            y += n * run;
          } else {
            for (int64_t j = 0; j < n; ++j, y += run) std::memcpy(y, src + j * step, sizeof(E) * run);
          }
        } else if (step == -1) {
          for (int64_t j = 0; j < n; ++j) y[j] = src[-j];
          y += n;
        } else {
          for (int64_t j = 0; j < n; ++j) y[j] = src[j * step];
          y += n;
        }
      }
}

}  // namespace

int kope_kernel(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  static const char* const bn[4] = {"b0", "b1", "b2", "b3"}, *const en[4] = {"e0", "e1", "e2", "e3"},
                           *const sn[4] = {"s0", "s1", "s2", "s3"};
  const int bm = (int)kope_attr_or(a, "begin_mask", 0), em = (int)kope_attr_or(a, "end_mask", 0);
  Axis ax[4];
  int64_t is[4];
  is[3] = 1;
  for (int k = 2; k >= 0; --k) is[k] = is[k + 1] * x.shape[k + 1];
  for (int k = 0; k < 4; ++k)
    if (!resolve(x.shape[k], (int64_t)kope_attr_or(a, bn[k], 0), (int64_t)kope_attr_or(a, en[k], 1e18),
                 (int64_t)kope_attr_or(a, sn[k], 1), (bm >> k) & 1, (em >> k) & 1, ax[k]))
      return 2;
  for (int k = 0; k < 4; ++k)
    if (ax[k].count != a->outputs[0].shape[k]) return 3;
  // Trailing axes taken whole (begin 0, step 1, every element) form one contiguous run of `run` elements.
  int inner = 3;
  int64_t run = 1;
  while (inner > 0 && ax[inner].begin == 0 && ax[inner].step == 1 && ax[inner].count == x.shape[inner]) {
    run *= x.shape[inner];
    --inner;
  }
  Axis axr[4];
  int64_t isr[4];
  for (int k = 0; k <= inner; ++k) axr[k] = ax[k], isr[k] = is[k];
  void* y = a->outputs[0].data;
  switch (x.dtype) {
    case KOPE_F32: case KOPE_I32: copy((const uint32_t*)x.data, (uint32_t*)y, axr, isr, inner, run); return 0;
    case KOPE_F16: case KOPE_BF16: copy((const uint16_t*)x.data, (uint16_t*)y, axr, isr, inner, run); return 0;
    case KOPE_I8: case KOPE_U8: copy((const uint8_t*)x.data, (uint8_t*)y, axr, isr, inner, run); return 0;
    case KOPE_F64: case KOPE_I64: copy((const uint64_t*)x.data, (uint64_t*)y, axr, isr, inner, run); return 0;
    default: return 7;
  }
}
