// thought: the fp32 vectorised expf loop, split across 2 threads once there are at least 256k elements
// kope:cxxflags -O3 -march=native -ffast-math -pthread
#include "kope_kernel.h"
#include <thread>

/* -ffast-math lets the compiler assume no NaN: pass a NaN input through by its bits (issue 16) */
static inline float nan_through(float x, float y) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7fffffffu) > 0x7f800000u ? x : y;
}

static void sigmoid_range(const float* __restrict x, float* __restrict y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    const float t = fminf(-x[i], 88.0f);
    y[i] = nan_through(x[i], 1.0f / (1.0f + expf(t)));
  }
}

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  if (n >= 262144) {
    const int64_t half = (n / 2 + 15) & ~(int64_t)15;
    try {
      std::thread t(sigmoid_range, x, y, half, n);
      sigmoid_range(x, y, 0, half);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  sigmoid_range(x, y, 0, n);
  return 0;
}
