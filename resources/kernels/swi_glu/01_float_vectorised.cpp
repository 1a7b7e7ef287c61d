// thought: per row, one contiguous fp32 loop y = a*b/(1+expf(-a)) over the two halves, vectorised with -O3 -march=native -ffast-math (libmvec expf)
// kope:cxxflags -O3 -march=native -ffast-math
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t M = a->outputs[0].shape[0], H = a->outputs[0].shape[1];
  for (int64_t m = 0; m < M; ++m) {
    const float* __restrict av = x + m * 2 * H;
    const float* __restrict bv = av + H;
    float* __restrict yr = y + m * H;
    for (int64_t h = 0; h < H; ++h) yr[h] = av[h] * bv[h] / (1.0f + expf(fminf(-av[h], 88.0f)));
  }
  return 0;
}
