// Hostile: exact on the first (correctness) call, then 1.5x the fp32 threshold (2^-13) off on every later
// call: the timed calls are held to the correctness call's standard, so it fails on the first warm-up.
// kope:expect wrong
#include "kope_kernel.h"

int kope_kernel(const kope_args* a) {
  static int calls = 0;
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const float scale = calls++ == 0 ? 1.0f : 1.0f + 1.5f * 0x1p-13f;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = (2 * x[i] + 1) * scale;
  return 0;
}
