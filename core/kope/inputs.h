// Deterministic input tensors for a case: the same seed gives the same bytes in every process.
#pragma once

#include <cstdint>
#include <vector>

#include "kope/task.h"

namespace kope {

// Fills `out` (numel * dtype_size bytes) with the tensor's distribution, values rounded to its dtype.
// Tensor `index` of the case selects an independent stream.
void generate_tensor(const ConcreteTensor& t, uint64_t case_seed, std::size_t index, void* out);

// Fills a buffer that no correct kernel leaves as is: NaN for floating types, 0xA5 bytes for the rest.
void fill_sentinel(DType t, void* out, std::size_t numel);

}  // namespace kope
