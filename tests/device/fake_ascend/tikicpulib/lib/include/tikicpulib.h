// A stand-in for tikicpulib.h: GmAlloc/GmFree, SetKernelMode and ICPU_RUN_KF, which runs the kernel once per
// block with GetBlockIdx() and GetBlockNum() set, as the CPU twin does (functionally; no pipes, no timing): each
// block on a thread of its own, one at a time, handing on at SyncAll (kope_fake_ascendc_cores.h).
#pragma once
#include <cstddef>
#include <cstdlib>
#include "kernel_operator.h"

enum class KernelMode { AIC_MODE, AIV_MODE, MIX_MODE };
namespace AscendC {
inline void* GmAlloc(size_t n) { return std::malloc(n ? n : 1); }
inline void GmFree(void* p) { std::free(p); }
inline void SetKernelMode(KernelMode) {}
}  // namespace AscendC

#define ICPU_RUN_KF(func, blockdim, ...) \
  AscendC::kope_fake_run_blocks((int64_t)(blockdim), [&] { func(__VA_ARGS__); })
