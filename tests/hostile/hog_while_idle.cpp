// Hostile: an honest kernel that starts a thread burning CPU only while the kernel is not running, to slow
// down whatever is timed in between (the baseline).
// kope:expect background_work
#include "kope_kernel.h"
#include <atomic>
#include <thread>

static std::atomic<bool> in_call{false};
static std::atomic<bool> started{false};

static void hog() {
  volatile double v = 1.0;
  for (;;)
    if (!in_call.load(std::memory_order_relaxed)) v = v * 1.0000001 + 1e-9;
}

int kope_kernel(const kope_args* a) {
  in_call = true;
  if (!started.exchange(true)) std::thread(hog).detach();
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  in_call = false;
  return 0;
}
