// thought: fp32 expf with -O3 -march=native -ffast-math so gcc vectorises the loop through libmvec's SIMD expf
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

/* -ffast-math lets the compiler assume no NaN: pass a NaN input through by its bits (issue 16) */
static inline float nan_through(float x, float y) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7fffffffu) > 0x7f800000u ? x : y;
}

/* expf overflows past 88.7228391: inf there (and for +inf), by bits, since -ffast-math assumes no infinities */
static inline float overflow_to_inf(float x, float y) {
  const uint32_t inf_bits = 0x7f800000u;
  float inf;
  memcpy(&inf, &inf_bits, sizeof inf);
  return x > 88.7228391f ? inf : y;
}

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) y[i] = nan_through(x[i], overflow_to_inf(x[i], expf(fminf(x[i], 88.7228391f))));
  return 0;
}
