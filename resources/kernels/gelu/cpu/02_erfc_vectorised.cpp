// thought: write gelu as 0.5*x*erfc(-x/sqrt(2)) so the negative tail has no 1+erf cancellation, and let -ffast-math vectorise erfcf through libmvec
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * erfcf(-0.70710678118654752f * x[i]);
  return 0;
}
