// thought: fp32 vectorised loop, and when the list holds at least 256k elements in total, a second thread takes the back half of every tensor
// kope:cxxflags -O3 -march=native -pthread
#include "kope_kernel.h"
#include <thread>

static void addcdiv_part(const kope_args* a, float value, int part, int parts) {
  const int L = a->n_outputs;
  for (int l = 0; l < L; ++l) {
    const float* __restrict s = static_cast<const float*>(a->inputs[l].data);
    const float* __restrict t1 = static_cast<const float*>(a->inputs[L + l].data);
    const float* __restrict t2 = static_cast<const float*>(a->inputs[2 * L + l].data);
    float* __restrict out = static_cast<float*>(a->outputs[l].data);
    const int64_t n = a->outputs[l].numel;
    const int64_t chunk = ((n + parts - 1) / parts + 15) & ~(int64_t)15;
    const int64_t b = chunk * part < n ? chunk * part : n;
    const int64_t e = b + chunk < n ? b + chunk : n;
    for (int64_t i = b; i < e; ++i) out[i] = s[i] + value * t1[i] / t2[i];
  }
}

int kope_kernel(const kope_args* a) {
  const float value = (float)kope_attr_or(a, "value", 1.0);
  int64_t total = 0;
  for (int l = 0; l < a->n_outputs; ++l) total += a->outputs[l].numel;
  if (total >= 262144) {
    try {
      std::thread t(addcdiv_part, a, value, 1, 2);
      addcdiv_part(a, value, 0, 2);
      t.join();
      return 0;
    } catch (...) {
    }
  }
  addcdiv_part(a, value, 0, 1);
  return 0;
}
