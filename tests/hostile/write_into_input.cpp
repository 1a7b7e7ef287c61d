// Hostile: computes the right answer and then scribbles over its input (a later call, or the baseline sharing
// the buffer, would see different data).
// kope:expect inputs_modified
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  float* x = (float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) {
    y[i] = 2 * x[i] + 1;
    x[i] = 0;
  }
  return 0;
}
