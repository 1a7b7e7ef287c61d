// Deterministic input tensors for a case: the same seed gives the same bytes in every process.
#pragma once

#include <cstdint>
#include <vector>

#include "kope/model/task.h"

namespace kope {

// Fills `out` (numel * dtype_size bytes) with the tensor's distribution, values rounded to its dtype.
// Tensor `index` of the case selects an independent stream.
void generate_tensor(const ConcreteTensor& t, uint64_t case_seed, std::size_t index, void* out);

// A special-value token (InitSpec::special) as a value of `dtype`, rounded to it; throws kope::Error for a token
// the dtype cannot hold (NaN, infinities or denormals in an integer tensor) or an unknown one.
double special_value(DType dtype, const InitSpec& init, const std::string& token);

// Overwrites seeded positions of `out` with the tensor's special values (nothing when it has none): each value at
// least once where numel allows, then about special_fraction of the elements. Called by generate_tensor and
// generate_fresh with their seeds, so seeded and fresh inputs both hold them.
void place_special(const ConcreteTensor& t, uint64_t seed, void* out);

// Fills a buffer that no correct kernel leaves as is: NaN for floating types, 0xA5 bytes for the rest.
void fill_sentinel(DType t, void* out, std::size_t numel);

}  // namespace kope
