// thought: do the arithmetic in fp32 (the baseline widens value * t1 / t2 to double) so -O3 -march=native vectorises each tensor's loop with vdivps and an FMA
// kope:cxxflags -O3 -march=native
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const int L = a->n_outputs;
  const float value = (float)kope_attr_or(a, "value", 1.0);
  for (int l = 0; l < L; ++l) {
    const float* __restrict s = static_cast<const float*>(a->inputs[l].data);
    const float* __restrict t1 = static_cast<const float*>(a->inputs[L + l].data);
    const float* __restrict t2 = static_cast<const float*>(a->inputs[2 * L + l].data);
    float* __restrict out = static_cast<float*>(a->outputs[l].data);
    const int64_t n = a->outputs[l].numel;
    for (int64_t i = 0; i < n; ++i) out[i] = s[i] + value * t1[i] / t2[i];
  }
  return 0;
}
