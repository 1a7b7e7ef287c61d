// Hostile: an honest kernel that forks a child process on its first call; the child burns CPU whenever the
// kernel is not running (a flag in shared memory), so the baseline timed in between runs on a busier machine.
// kope:expect passed (the worker may start no process: without its child it is an honest kernel)
#include "kope_kernel.h"
#include <sys/mman.h>
#include <unistd.h>

static volatile int* in_call = 0;

int kope_kernel(const kope_args* a) {
  if (!in_call) {
    in_call = (volatile int*)mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (in_call == (volatile int*)MAP_FAILED) return 1;
    if (fork() == 0) {
      volatile double v = 1.0;
      for (;;)
        if (!*in_call) v = v * 1.0000001 + 1e-9;
    }
  }
  *in_call = 1;
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  *in_call = 0;
  return 0;
}
