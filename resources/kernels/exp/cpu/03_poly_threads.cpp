// thought: branch-free expf: n = round(x/ln2), degree-6 minimax polynomial on the reduced argument, 2^n from exponent bits; vectorises without libm, and splits over 2 threads for large n
// kope:cxxflags -O3 -march=native -fno-math-errno -fno-trapping-math -pthread
#include "kope_kernel.h"
#include <thread>

static void exp_range(const float* __restrict x, float* __restrict y, int64_t b, int64_t e) {
  for (int64_t i = b; i < e; ++i) {
    float v = x[i];
    v = v < -87.3f ? -87.3f : v;
    v = v > 88.3f ? 88.3f : v;
    const float nf = floorf(v * 1.44269504088896341f + 0.5f);
    float r = v - nf * 0.693359375f; /* Cody-Waite: ln2 split into a short high part and a correction */
    r = r - nf * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const int32_t bits = ((int32_t)nf + 127) << 23;
    float s;
    memcpy(&s, &bits, sizeof s);
    y[i] = x[i] > 88.7228391f ? INFINITY : x[i] != x[i] ? x[i] : p * s; /* overflow to inf, NaN through */
  }
}

int kope_kernel(const kope_args* a) {
  const float* x = static_cast<const float*>(a->inputs[0].data);
  float* y = static_cast<float*>(a->outputs[0].data);
  const int64_t n = a->inputs[0].numel;
  if (n >= 262144) {
    const int64_t half = (n / 2 + 15) & ~(int64_t)15;
    try {
      std::thread t(exp_range, x, y, half, n);
      exp_range(x, y, 0, half);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  exp_range(x, y, 0, n);
  return 0;
}
