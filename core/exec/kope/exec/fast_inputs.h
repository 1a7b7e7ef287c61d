// Fresh inputs for every timed call, fast enough to make per call: a counter-based hash per element (it
// vectorises), the task's distribution (normal through an interpolated quantile table) and dtype.
#pragma once

#include <cstdint>

#include "kope/model/task.h"

namespace kope::exec {

// Fills `out` (numel * dtype_size bytes) with values of t's init distribution rounded to its dtype. Different
// seeds give unrelated streams; the stream is independent of generate_tensor's (the correctness inputs).
void generate_fresh(const ConcreteTensor& t, uint64_t seed, void* out);

// A seed for (evaluation nonce, case, call, tensor): splitmix64 of their combination.
uint64_t mix_seed(uint64_t a, uint64_t b, uint64_t c = 0, uint64_t d = 0);

}  // namespace kope::exec
