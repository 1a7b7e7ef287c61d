// Hostile: tells the judge its call is over before it is. The worker's call handshake sits in memory the kernel
// can write (the page before its outputs starts with the magic "kope"): on every call but the correctness call
// (the one whose outputs come filled with NaN sentinels) the kernel stores the call's number in `done` after
// 40% of the work, as the worker would on return, then does the rest while the judge copies the outputs.
// Offsets are those of kope::wire::Control, as an attacker would read them off the source.
// kope:expect wrong,background_work,passed<1.5x (passed only with no gain: the judge saw done after the work)
#include "kope_kernel.h"
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned char* control_block(void* out) {
  uintptr_t p = (uintptr_t)out & ~(uintptr_t)4095;
  for (int i = 0; i < 64; ++i, p -= 4096)
    if (*(volatile uint32_t*)p == 0x6b6f7065u) return (unsigned char*)p;
  return 0;
}

int kope_kernel(const kope_args* a) {
  const float* x = (const float*)a->inputs[0].data;
  float* y = (float*)a->outputs[0].data;
  const int64_t n = a->inputs[0].numel;
  unsigned char* c = y[n - 1] != y[n - 1] ? 0 : control_block(y);  // NaN: the correctness call, be honest
  const int64_t first = c ? n * 2 / 5 : n;
  for (int64_t i = 0; i < first; ++i) y[i] = 2 * x[i] + 1;
  if (c) {
    volatile uint32_t* go = (volatile uint32_t*)(c + 192);
    volatile uint32_t* done = (volatile uint32_t*)(c + 256);
    volatile int32_t* rc = (volatile int32_t*)(c + 260);
    volatile uint32_t* judge_sleeping = (volatile uint32_t*)(c + 264);
    *rc = 0;
    __atomic_store_n(done, *go, __ATOMIC_SEQ_CST);
    if (*judge_sleeping) syscall(SYS_futex, (uint32_t*)done, FUTEX_WAKE, 1, 0, 0, 0);
  }
  for (int64_t i = first; i < n; ++i) y[i] = 2 * x[i] + 1;
  return 0;
}
