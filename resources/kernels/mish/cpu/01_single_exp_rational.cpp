// thought: tanh(log1p(e^x)) = n/(n+2) with n = e^x*(e^x+2), so mish needs one expf and a division; clamp x at 20 (where n/(n+2) rounds to 1) and vectorise with -ffast-math
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
    const float v = x[i];
    const float e = expf(fminf(v, 20.0f));
    const float q = e * (e + 2.0f);
    y[i] = nan_through(v, v * (q / (q + 2.0f)));  /* v * q overflows for huge v */
  }
  return 0;
}
