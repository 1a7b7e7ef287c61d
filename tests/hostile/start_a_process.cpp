// Hostile: tries every way a kernel could start a process of its own (fork, vfork, clone without CLONE_THREAD,
// posix_spawn of a shell), each child burning CPU forever outside the worker's clock. It returns 100 plus a bit
// for each way that worked, so "returned 100" means every way was refused. The outputs are right either way.
// kope:expect runtime_error (it returns 100 when every way was refused)
#include "kope_kernel.h"
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char** environ;

static void burn() {
  volatile double v = 1.0;
  for (;;) v = v * 1.0000001 + 1e-9;
}

int kope_kernel(const kope_args* a) {
  static int worked = -1;
  if (worked < 0) {
    worked = 0;
    pid_t p = fork();
    if (p == 0) burn();
    if (p > 0) worked |= 1;
    p = vfork();
    if (p == 0) _exit(0);
    if (p > 0) worked |= 2;
    long c = syscall(SYS_clone, (unsigned long)SIGCHLD, 0, 0, 0, 0);
    if (c == 0) burn();
    if (c > 0) worked |= 4;
    pid_t s = -1;
    char* argv[] = {(char*)"sh", (char*)"-c", (char*)"while :; do :; done", 0};
    if (posix_spawn(&s, "/bin/sh", 0, 0, argv, environ) == 0) worked |= 8;
  }
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = 2 * x[i] + 1;
  return 100 + worked;
}
