// Hostile: hands the work to a detached thread and returns at once, so the timed call looks almost free.
// kope:expect wrong,background_work
#include "kope_kernel.h"
#include <thread>
#include <unistd.h>

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  std::thread([x, y, n] {
    usleep(2000);
    for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;
  }).detach();
  return 0;
}
