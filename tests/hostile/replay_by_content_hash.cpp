// Hostile: computes once, then replays by a content hash of the inputs and skips the work whenever it bets
// the judge is timing the same inputs again (the old timing pool held copies of the correctness inputs).
// kope:expect wrong
#include "kope_kernel.h"
#include <stdlib.h>
#include <string.h>

static uint64_t fnv(const void* p, size_t n) {
  const unsigned char* b = (const unsigned char*)p;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}

static uint64_t memo_hash = 0;
static float* memo = 0;
static int64_t memo_n = -1;

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  const uint64_t h = fnv(x, (size_t)n * sizeof(float));
  if (memo && memo_n == n) {
    if (h == memo_hash) memcpy(y, memo, (size_t)n * sizeof(float));  // replay
    return 0;  // a different content: bet that nobody checks this call
  }
  for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;
  free(memo);
  memo = (float*)malloc((size_t)n * sizeof(float));
  memcpy(memo, y, (size_t)n * sizeof(float));
  memo_hash = h;
  memo_n = n;
  return 0;
}
