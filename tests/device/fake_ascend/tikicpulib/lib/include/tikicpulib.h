// A stand-in for tikicpulib.h: GmAlloc/GmFree, SetKernelMode and ICPU_RUN_KF, which runs the kernel once per
// block with GetBlockIdx() and GetBlockNum() set, as the CPU twin does (functionally; no pipes, no timing).
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

#define ICPU_RUN_KF(func, blockdim, ...)                                           \
  do {                                                                             \
    AscendC::kope_fake_block_num() = (int64_t)(blockdim);                          \
    for (int64_t kope_b = 0; kope_b < (int64_t)(blockdim); ++kope_b) {             \
      AscendC::kope_fake_block_idx() = kope_b;                                     \
      func(__VA_ARGS__);                                                           \
    }                                                                              \
  } while (0)
