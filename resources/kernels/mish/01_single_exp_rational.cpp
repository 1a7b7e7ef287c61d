// thought: tanh(log1p(e^x)) = n/(n+2) with n = e^x*(e^x+2), so mish needs one expf and a division; clamp x at 20 (where n/(n+2) rounds to 1) and vectorise with -ffast-math
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float e = expf(fminf(v, 20.0f));
    const float q = e * (e + 2.0f);
    y[i] = v * q / (q + 2.0f);
  }
  return 0;
}
