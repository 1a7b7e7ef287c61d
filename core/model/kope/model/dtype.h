// Element types of task tensors: names, sizes, correctness thresholds and conversion to and from double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kope {

enum class DType : int32_t { F32 = 0, F64 = 1, F16 = 2, BF16 = 3, I32 = 4, I64 = 5, U8 = 6, I8 = 7 };

std::optional<DType> parse_dtype(std::string_view name);
std::string_view dtype_name(DType t);
std::size_t dtype_size(DType t);
bool is_floating(DType t);

// Mean relative error must stay below this, the max below ten times this (CANN Bench rules).
// Integer types must match exactly: 0.
double default_threshold(DType t);

// Rounds v to the nearest value representable in t (integers are rounded half away from zero and clamped).
double round_to(DType t, double v);

double load_as_double(DType t, const void* base, std::size_t index);
void store_from_double(DType t, void* base, std::size_t index, double v);

}  // namespace kope
