// thought: fp32 and branch-free: y = x * (float)mask * scale with scale held as a float, a widen-convert-multiply loop that -O3 -march=native vectorises
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  const uint8_t* __restrict mask = static_cast<const uint8_t*>(a->inputs[1].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  const float scale = (float)kope_attr_or(a, "scale", 1.0);
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] * (float)mask[i] * scale;
  return 0;
}
