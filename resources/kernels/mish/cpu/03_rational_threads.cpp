// thought: the one-expf rational mish x*n/(n+2), n = e^x*(e^x+2), split across 2 threads for inputs of 256k elements or more
// kope:cxxflags -O3 -march=native -ffast-math -pthread
#include "kope_kernel.h"
#include <thread>

/* -ffast-math lets the compiler assume no NaN: pass a NaN input through by its bits (issue 16) */
static inline float nan_through(float x, float y) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x7fffffffu) > 0x7f800000u ? x : y;
}

static void mish_range(const float* __restrict x, float* __restrict y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    const float v = x[i];
    const float t = expf(fminf(v, 20.0f));
    const float q = t * (t + 2.0f);
    y[i] = nan_through(v, v * (q / (q + 2.0f)));  /* v * q overflows for huge v */
  }
}

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  if (n >= 262144) {
    const int64_t half = (n / 2 + 15) & ~(int64_t)15;
    try {
      std::thread t(mish_range, x, y, half, n);
      mish_range(x, y, 0, half);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  mish_range(x, y, 0, n);
  return 0;
}
