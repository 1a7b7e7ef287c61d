// Correctness against the fp64 golden: relative error with eps 1e-7, mean < t and max < 10 t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kope/model/dtype.h"
#include "kope/model/task.h"

namespace kope {

inline constexpr double kRelEps = 1e-7;

struct OutputCheck {
  std::string name;
  double mean_rel = 0.0;
  double max_rel = 0.0;
  double threshold = 0.0;
  int64_t worst_index = -1;
  double expected = 0.0;  // golden at worst_index
  double got = 0.0;       // the kernel's value there
  int64_t mismatches = 0; // elements whose relative error exceeds 10 t
  bool ok = false;
  // Accuracy reached (issue 16): bits = -log2(max rel err) and mean_bits = -log2(mean rel err), each capped at
  // the dtype's significand (mantissa + 1: 24 for fp32, 11 fp16, 8 bf16, 53 fp64); -1 for integer outputs.
  // max_ulps: the largest distance, in units in the last place of the output dtype, between an element and the
  // reference rounded to that dtype (0: correctly rounded); for integers the largest absolute difference.
  // Infinite when a NaN or infinity is unmatched.
  double bits = -1.0;
  double mean_bits = -1.0;
  double max_ulps = 0.0;
  // Index outputs ("index_of"): why the first wrong element is wrong, in words; empty for the relative check.
  std::string note;
};

// The significand bits of a floating dtype (24 for fp32), 0 for integers.
int significand_bits(DType dtype);

// -log2(rel) capped at the dtype's significand bits (the cap when rel is 0); -1 for integer dtypes.
double accuracy_bits(DType dtype, double rel);

// The distance in ulps of `dtype` between v and g rounded to `dtype` (see OutputCheck::max_ulps).
double ulp_distance(DType dtype, double v, double g);

// Fills bits, mean_bits (from mean_rel and max_rel) for `dtype`; max_ulps is left as it is.
void set_accuracy(OutputCheck& c, DType dtype);

// "output y: mean rel err ..., worst at index ...: expected ..., got ...": why a check failed, in one line.
std::string describe_check(const OutputCheck& o);

// |got - golden| / (|golden| + eps); equal NaNs and equal infinities count as exact, any other
// non-finite pairing as infinitely wrong. `got` is in `dtype`, golden in double. A finite golden beyond the
// output dtype's range counts as the infinity storing it gives (fp32, fp16, bf16): an overflowing result is right
// and a saturating one wrong.
OutputCheck check_output(const std::string& name, DType dtype, const void* got, const double* golden,
                         std::size_t numel, double threshold);

// The same for float outputs against a float reference (the trusted baseline's output), widened per element.
OutputCheck check_output_f32(const std::string& name, const float* got, const float* ref, std::size_t numel,
                             double threshold);

// An "index_of" output (kope/model/task.h IndexOf): the kernel's indices `got` against the reference indices `ref`
// (the golden, or the baseline's output widened), both pointing into `source_data`, the input `source` as the
// kernel saw it. An element passes where the reference's index is in range and the kernel's index is in range,
// points at an element equal to the one the reference's points at (NaN equal to NaN, -0 to 0), and is not
// repeated along the axis; or where the reference's index is outside [0, size) and the kernel's equals it.
// mismatches counts the failing elements; worst_index, expected, got and note describe the first.
OutputCheck check_index_output(const ConcreteTensor& out, const void* got, const double* ref,
                               const ConcreteTensor& source, const void* source_data);

// Output `i` of case `c` as the task asks: check_index_output where it has "index_of" (`inputs`: the case's
// input data, as the kernel saw it), else check_output with `threshold`.
OutputCheck check_case_output(const ConcreteCase& c, std::size_t i, const void* got, const double* ref,
                              double threshold, const std::vector<const void*>& inputs);

}  // namespace kope
