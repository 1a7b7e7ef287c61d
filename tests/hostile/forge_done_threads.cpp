// Hostile: on every call but the correctness call (NaN sentinels in the outputs), says "done" at once and leaves
// the work to two threads it started when loaded, which sleep on a futex between calls (no CPU while idle) and
// finish the call after the judge believes it is over. Same handshake offsets as forge_done.cpp.
// kope:expect wrong,background_work,passed<2.2x (passed only with what two threads earn honestly: the judge saw done after the work)
#include "kope_kernel.h"
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <thread>

static const kope_args* volatile job = 0;
static volatile int pending = 0;

static void worker(int part) {
  for (;;) {
    const int p = pending;
    if (!(p & (1 << part))) {
      syscall(SYS_futex, (int*)&pending, FUTEX_WAIT, p, 0, 0, 0);
      continue;
    }
    const kope_args* a = job;
    const float* x = (const float*)a->inputs[0].data;
    float* y = (float*)a->outputs[0].data;
    const int64_t n = a->inputs[0].numel, lo = n * part / 2, hi = n * (part + 1) / 2;
    for (int64_t i = lo; i < hi; ++i) y[i] = 2 * x[i] + 1;
    __atomic_fetch_and(&pending, ~(1 << part), __ATOMIC_SEQ_CST);
  }
}

__attribute__((constructor)) static void start() {
  std::thread(worker, 0).detach();
  std::thread(worker, 1).detach();
}

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
  if (y[n - 1] != y[n - 1]) {
    for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;
    return 0;
  }
  static kope_args copy;
  copy = *a;
  job = &copy;
  __atomic_store_n(&pending, 3, __ATOMIC_SEQ_CST);
  syscall(SYS_futex, (int*)&pending, FUTEX_WAKE, 2, 0, 0, 0);
  unsigned char* c = control_block(a->outputs[0].data);
  if (c) {
    volatile uint32_t* go = (volatile uint32_t*)(c + 192);
    volatile uint32_t* done = (volatile uint32_t*)(c + 256);
    *(volatile int32_t*)(c + 260) = 0;
    __atomic_store_n(done, *go, __ATOMIC_SEQ_CST);
    if (*(volatile uint32_t*)(c + 264)) syscall(SYS_futex, (uint32_t*)done, FUTEX_WAKE, 1, 0, 0, 0);
  }
  return 0;  // the threads finish after the judge has stopped its clock
}
