// Hostile: crashes in a constructor, before kope ever calls the kernel.
// kope:expect crash
#include "kope_kernel.h"
#include <signal.h>

__attribute__((constructor)) static void boom(void) { raise(SIGSEGV); }

int kope_kernel(const kope_args* a) { (void)a; return 0; }
