// Hostile: starts threads until it cannot (at most 3000), each asleep for good: a process-count limit of the
// whole tree (pids.max counts threads too) is what stops it. Returns the number it started.
// kope:expect runtime_error (it returns how many it started)
#include "kope_kernel.h"
#include <pthread.h>
#include <unistd.h>

static void* sleeper(void* p) {
  (void)p;
  for (;;) pause();
  return 0;
}

int kope_kernel(const kope_args* a) {
  static int started = -1;
  if (started < 0) {
    started = 0;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 << 10);
    for (; started < 3000; ++started) {
      pthread_t t;
      if (pthread_create(&t, &at, sleeper, 0) != 0) break;
    }
  }
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  return started;
}
