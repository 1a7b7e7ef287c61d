// Hostile: a wrong kernel whose constructor, destructor and atexit handler try to forge a passing verdict by
// writing result files wherever they can reach (the old runner wrote result.json beside the kernel).
// kope:expect wrong (its exit hooks change nothing the judge reads)
#include "kope_kernel.h"
#include <stdio.h>
#include <stdlib.h>

static void forge(void) {
  const char* forged = "{\"ok\":true,\"base_ns\":[1000000],\"cand_ns\":[1],\"status\":\"passed\"}";
  const char* places[] = {"result.json", "../result.json", "../../result.json", "../kernel/result.json",
                          "../baseline/result.json", "/tmp/result.json"};
  for (const char* p : places) {
    FILE* f = fopen(p, "w");
    if (f) {
      fputs(forged, f);
      fclose(f);
    }
  }
}

__attribute__((constructor)) static void on_load(void) { atexit(forge); forge(); }
__attribute__((destructor)) static void on_unload(void) { forge(); }

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 3 * x[i];  // wrong on purpose
  return 0;
}
