// A stand-in for AscendC's kernel_operator.h under ASCENDC_CPU_DEBUG: just enough (GM_ADDR, the qualifiers,
// GetBlockIdx, GetBlockNum) for scalar test kernels.
#pragma once
#include <cstdint>
#define __global__
#define __aicore__
typedef uint8_t* GM_ADDR;
namespace AscendC {
inline int64_t& kope_fake_block_idx() { static thread_local int64_t b = 0; return b; }
inline int64_t GetBlockIdx() { return kope_fake_block_idx(); }
}  // namespace AscendC
