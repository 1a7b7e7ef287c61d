// thought: stay in fp32 (the baseline widens 1.0 + expf(-x) to double) and let -O3 -march=native -ffast-math vectorise expf through libmvec
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

/* -ffast-math lets the compiler assume no NaN: pass a NaN input through by its bits (issue 16) */
static inline float nan_through(float x, float y) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7fffffffu) > 0x7f800000u ? x : y;
}

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float t = fminf(-x[i], 88.0f); /* keep expf finite; 1/(1+e^88) is already ~0 */
    y[i] = nan_through(x[i], 1.0f / (1.0f + expf(t)));
  }
  return 0;
}
