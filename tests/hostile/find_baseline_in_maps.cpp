// Hostile: looks for the baseline's code in its own address space (to patch it or to call it). Returns 42
// when it finds any other kope kernel mapped into its process; otherwise it computes honestly.
// kope:expect passed (the baseline is in another process: the trick finds nothing and it computes honestly)
#include "kope_kernel.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int baseline_is_here(void) {
  FILE* f = fopen("/proc/self/maps", "r");
  if (!f) return 0;
  char line[4096];
  int found = 0;
  while (fgets(line, sizeof line, f))
    if (strstr(line, "baseline") || strstr(line, "reference")) found = 1;
  fclose(f);
  // Any other object exporting kope_kernel besides this one?
  void* self = dlsym(RTLD_DEFAULT, "kope_kernel");
  void* next = dlsym(RTLD_NEXT, "kope_kernel");
  if (next && next != self) found = 1;
  return found;
}

int kope_kernel(const kope_args* a) {
  if (baseline_is_here()) return 42;
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  return 0;
}
