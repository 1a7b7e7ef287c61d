// thought: the vectorised fp32 row loop (silu(a) formed before the product, true division), with the rows split between 2 threads when the output has at least 256k elements
// kope:cxxflags -O3 -march=native -ffast-math -fno-associative-math -fno-reciprocal-math -mno-recip -pthread
#include "kope_kernel.h"
#include <thread>

static void swiglu_rows(const float* x, float* y, int64_t H, int64_t m0, int64_t m1) {
  for (int64_t m = m0; m < m1; ++m) {
    const float* __restrict av = x + m * 2 * H;
    const float* __restrict bv = av + H;
    float* __restrict yr = y + m * H;
    for (int64_t h = 0; h < H; ++h) {
      const float s = av[h] / (1.0f + expf(-av[h]));  // a / inf = -0 for a large negative a, as ATen's silu
      yr[h] = s * bv[h];
    }
  }
}

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t M = a->outputs[0].shape[0], H = a->outputs[0].shape[1];
  if (M >= 2 && M * H >= 262144) {
    const int64_t half = M / 2;
    try {
      std::thread t(swiglu_rows, x, y, H, half, M);
      swiglu_rows(x, y, H, 0, half);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  swiglu_rows(x, y, H, 0, M);
  return 0;
}
