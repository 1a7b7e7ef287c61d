// Hostile: right on ordinary values, garbage (0) on NaN, infinities and large magnitudes. Cases whose inputs
// hold the special values the operator defines reject it; cases without them would not.
// kope:expect passed (on a task with no special values, such as the affine one, it is honest there; test_judge judges it on one that has them)
#include "kope_kernel.h"

#include <math.h>

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) {
    const float v = x[i];
    y[i] = (isfinite(v) && fabsf(v) < 1e6f) ? 2 * v + 1 : 0.0f;
  }
  return 0;
}
