// thought: keep log1pf(expf(x)) for softplus but replace tanhf by the [3/2] Pade form z*(27+z^2)/(27+9z^2), clamped to 1 for z >= 3, so nothing in the loop blocks vectorisation
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* __restrict x = static_cast<const float*>(a->inputs[0].data);
  float* __restrict y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float sp = v > 20.0f ? v : log1pf(expf(fminf(v, 20.0f)));
    const float z = fminf(sp, 3.0f);
    const float z2 = z * z;
    y[i] = v * (z * (27.0f + z2) / (27.0f + 9.0f * z2));
  }
  return 0;
}
