// Hostile: writes a 256 MiB file into the sandbox's /tmp (memory, on a machine's shared disk cache, or disk).
// The per-file size limit stops it at 64 MiB with SIGXFSZ. Returns 0 if it wrote it all.
// kope:expect crash
#include "kope_kernel.h"
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int kope_kernel(const kope_args* a) {
  static int done = 0;
  if (!done) {
    done = 1;
    static char block[1 << 20];
    memset(block, 1, sizeof block);
    int fd = open("/tmp/huge", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return 3;
    for (int mb = 0; mb < 256; ++mb)
      if (write(fd, block, sizeof block) != (ssize_t)sizeof block) return 4;
    close(fd);
  }
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  return 0;
}
