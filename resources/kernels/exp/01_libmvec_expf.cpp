// thought: fp32 expf with -O3 -march=native -ffast-math so gcc vectorises the loop through libmvec's SIMD expf
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) y[i] = expf(fminf(x[i], 88.5f));
  return 0;
}
