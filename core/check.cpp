#include "kope/check.h"

#include <cmath>
#include <limits>

namespace kope {

OutputCheck check_output(const std::string& name, DType dtype, const void* got, const double* golden,
                         std::size_t numel, double threshold) {
  OutputCheck c;
  c.name = name;
  c.threshold = threshold;
  double sum = 0.0;
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < numel; ++i) {
    const double g = golden[i];
    const double v = load_as_double(dtype, got, i);
    double rel;
    if (std::isnan(g) || std::isnan(v)) rel = std::isnan(g) && std::isnan(v) ? 0.0 : inf;
    else if (std::isinf(g) || std::isinf(v)) rel = g == v ? 0.0 : inf;
    else rel = std::fabs(v - g) / (std::fabs(g) + kRelEps);
    sum += rel;
    if (rel > 10.0 * threshold || (threshold == 0.0 && rel > 0.0)) ++c.mismatches;
    if (rel > c.max_rel || c.worst_index < 0) {
      c.max_rel = rel;
      c.worst_index = static_cast<int64_t>(i);
      c.expected = g;
      c.got = v;
    }
  }
  c.mean_rel = numel ? sum / static_cast<double>(numel) : 0.0;
  c.ok = threshold == 0.0 ? c.max_rel == 0.0 : (c.mean_rel < threshold && c.max_rel < 10.0 * threshold);
  return c;
}

}  // namespace kope
