// thought: binary GCD (Stein): count-trailing-zeros shifts and subtractions instead of Euclid's 20-40 cycle integer divisions, on unsigned magnitudes
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

template <class U> static inline U binary_gcd(U u, U v) {
  if (u == 0) return v;
  if (v == 0) return u;
  const int shift = __builtin_ctzll(u | v);
  u >>= __builtin_ctzll(u);
  do {
    v >>= __builtin_ctzll(v);
    if (u > v) {
      U t = u;
      u = v;
      v = t;
    }
    v -= u;
  } while (v != 0);
  return u << shift;
}

template <class S, class U> static void run(const void* a, const void* b, void* o, int64_t n) {
  const S* x = static_cast<const S*>(a);
  const S* y = static_cast<const S*>(b);
  S* out = static_cast<S*>(o);
  for (int64_t i = 0; i < n; ++i) {
    const U u = x[i] < 0 ? U(0) - U(x[i]) : U(x[i]);
    const U v = y[i] < 0 ? U(0) - U(y[i]) : U(y[i]);
    out[i] = S(binary_gcd<U>(u, v));
  }
}

int kope_kernel(const kope_args* a) {
  const int64_t n = a->outputs[0].numel;
  if (a->outputs[0].dtype == KOPE_I64)
    run<int64_t, uint64_t>(a->inputs[0].data, a->inputs[1].data, a->outputs[0].data, n);
  else
    run<int32_t, uint32_t>(a->inputs[0].data, a->inputs[1].data, a->outputs[0].data, n);
  return 0;
}
