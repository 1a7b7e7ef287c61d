// Hostile: holds memory the address-space limit does not see. Shared memory (memfds, or files in the
// sandbox's /tmp, which is memory too) counts in no process's address space once unmapped: only the
// whole-tree memory cgroup bounds it. 40 memfds of 48 MiB, written through, kept open: 1.9 GiB. Returns 100
// plus the number it could fill (140: all of them, the limit is not there).
// kope:expect crash
#define _GNU_SOURCE
#include "kope_kernel.h"
#include <sys/mman.h>
#include <unistd.h>
#include <string.h>

int kope_kernel(const kope_args* a) {
  static int held = -1;
  if (held < 0) {
    held = 0;
    static char block[1 << 20];
    memset(block, 0x5a, sizeof block);
    for (int i = 0; i < 40; ++i) {
      int fd = memfd_create("hoard", 0);
      if (fd < 0) break;
      int mb = 0;
      for (; mb < 48; ++mb)
        if (write(fd, block, sizeof block) != (ssize_t)sizeof block) break;
      if (mb < 48) break;
      ++held;
    }
  }
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  return 100 + held;
}
