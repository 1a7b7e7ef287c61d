// thought: the op is memory bound, so split the vectorised fp32 loop across 2 threads (two cores' worth of load bandwidth) once n >= 256k
// kope:cxxflags -O3 -march=native -pthread
#include "kope_kernel.h"
#include <thread>

static void masked_scale_range(const float* __restrict x, const uint8_t* __restrict mask, float* __restrict y, float scale,
                               int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) y[i] = x[i] * (float)mask[i] * scale;
}

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  const uint8_t* mask = static_cast<const uint8_t*>(a->inputs[1].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  const float scale = (float)kope_attr_or(a, "scale", 1.0);
  if (n >= 262144) {
    const int64_t half = (n / 2 + 63) & ~(int64_t)63;
    try {
      std::thread t(masked_scale_range, x, mask, y, scale, half, n);
      masked_scale_range(x, mask, y, scale, 0, half);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  masked_scale_range(x, mask, y, scale, 0, n);
  return 0;
}
