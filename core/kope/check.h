// Correctness against the fp64 golden: relative error with eps 1e-7, mean < t and max < 10 t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kope/dtype.h"

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
};

// |got - golden| / (|golden| + eps); equal NaNs and equal infinities count as exact, any other
// non-finite pairing as infinitely wrong. `got` is in `dtype`, golden in double.
OutputCheck check_output(const std::string& name, DType dtype, const void* got, const double* golden,
                         std::size_t numel, double threshold);

// The same for float outputs against a float reference (the trusted baseline's output), widened per element.
OutputCheck check_output_f32(const std::string& name, const float* got, const float* ref, std::size_t numel,
                             double threshold);

}  // namespace kope
