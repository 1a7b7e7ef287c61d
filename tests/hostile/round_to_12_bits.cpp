// Coarse: every result rounded to 12 significant bits (half of fp32's 24). CANN's rule (mean rel err < 2^-13,
// max < 10 x 2^-13) lets it pass; the report must show about 12 bits of accuracy where an honest kernel has 24.
// kope:expect passed,wrong (CANN's rule lets it pass on many-element cases, a one-element case fails it about half the time; its report shows ~12 bits)
#include "kope_kernel.h"

#include <string.h>

static float round12(float v) {
  unsigned u;
  memcpy(&u, &v, 4);
  u = (u + 0x800u) & ~0xfffu;  // round half up on the 12 dropped significand bits
  memcpy(&v, &u, 4);
  return v;
}

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = round12(2 * x[i] + 1);
  return 0;
}
