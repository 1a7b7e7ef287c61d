// Hostile: writes the right answer in the call, then a background thread keeps rewriting the output after the
// return (so a check that looked later would see something else than the timed call produced).
// kope:expect wrong,background_work
#include "kope_kernel.h"
#include <thread>
#include <unistd.h>

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;
  std::thread([y, n] {
    for (int k = 0; k < 200; ++k) {
      usleep(100);
      y[n - 1] += 1.0f;
    }
  }).detach();
  return 0;
}
