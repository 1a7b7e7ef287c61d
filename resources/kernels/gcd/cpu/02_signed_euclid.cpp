// thought: Euclid's algorithm straight on the signed values, without the abs: C's % keeps the remainder's sign, so the loop still ends
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

template <class S> static void run(const void* a, const void* b, void* o, int64_t n) {
  const S* x = static_cast<const S*>(a);
  const S* y = static_cast<const S*>(b);
  S* out = static_cast<S*>(o);
  for (int64_t i = 0; i < n; ++i) {
    S p = x[i], q = y[i];
    while (q != 0) {
      S r = p % q;
      p = q;
      q = r;
    }
    out[i] = p;
  }
}

int kope_kernel(const kope_args* a) {
  const int64_t n = a->outputs[0].numel;
  if (a->outputs[0].dtype == KOPE_I64) run<int64_t>(a->inputs[0].data, a->inputs[1].data, a->outputs[0].data, n);
  else run<int32_t>(a->inputs[0].data, a->inputs[1].data, a->outputs[0].data, n);
  return 0;
}
