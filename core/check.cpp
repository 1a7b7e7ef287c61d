#include "kope/check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kope/target_clones.h"

namespace kope {

namespace {

// The relative error of one element, as the contract above defines it.
inline double rel_error(double v, double g) {
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(g) || std::isnan(v)) return std::isnan(g) && std::isnan(v) ? 0.0 : inf;
  if (std::isinf(g) || std::isinf(v)) return g == v ? 0.0 : inf;
  return std::fabs(v - g) / (std::fabs(g) + kRelEps);
}

// The same, written without branches so that a loop of it vectorises.
inline double rel_error_branchless(double v, double g) {
  const double inf = std::numeric_limits<double>::infinity();
  const bool nan_v = v != v, nan_g = g != g;
  const bool inf_v = std::fabs(v) == inf, inf_g = std::fabs(g) == inf;
  const double finite = std::fabs(v - g) / (std::fabs(g) + kRelEps);
  const double special_nan = nan_v && nan_g ? 0.0 : inf;
  const double special_inf = g == v ? 0.0 : inf;
  return (nan_v || nan_g) ? special_nan : (inf_v || inf_g) ? special_inf : finite;
}

// float outputs against a double golden or a float reference: vectorised passes over blocks (sum, count,
// maximum, and which block holds the first maximum), then the worst element found inside that block alone.
// The sum is taken per block and lane, so mean_rel can differ from the element-by-element sum in its last bits.
template <typename Ref>
__attribute__((always_inline)) inline void check_f32(OutputCheck& c, const float* __restrict got,
                                                     const Ref* __restrict ref, std::size_t numel,
                                                     double threshold) {
  constexpr std::size_t kBlock = 2048;
  const double limit = 10.0 * threshold;
  double sum = 0.0, best = -1.0;
  int64_t mismatches = 0;
  std::size_t best_block = 0;
  for (std::size_t b = 0; b < numel; b += kBlock) {
    const std::size_t e = std::min(numel, b + kBlock);
    double bs = 0.0, bm = 0.0;
    int64_t bc = 0;
#pragma omp simd reduction(+ : bs, bc) reduction(max : bm)
    for (std::size_t i = b; i < e; ++i) {
      const double rel = rel_error_branchless(static_cast<double>(got[i]), static_cast<double>(ref[i]));
      bs += rel;
      bm = bm > rel ? bm : rel;
      bc += (rel > limit || (threshold == 0.0 && rel > 0.0)) ? 1 : 0;
    }
    sum += bs;
    mismatches += bc;
    if (bm > best) {
      best = bm;
      best_block = b;
    }
  }
  c.mismatches = mismatches;
  if (numel == 0) return;
  const std::size_t e = std::min(numel, best_block + kBlock);
  for (std::size_t i = best_block; i < e; ++i) {
    const double g = static_cast<double>(ref[i]), v = static_cast<double>(got[i]);
    const double rel = rel_error(v, g);
    if (rel > c.max_rel || c.worst_index < 0) {
      c.max_rel = rel;
      c.worst_index = static_cast<int64_t>(i);
      c.expected = g;
      c.got = v;
    }
  }
  c.mean_rel = sum / static_cast<double>(numel);
}


KOPE_CLONES void check_f32_golden(OutputCheck& c, const float* got, const double* ref, std::size_t n, double t) {
  check_f32(c, got, ref, n, t);
}

KOPE_CLONES void check_f32_float(OutputCheck& c, const float* got, const float* ref, std::size_t n, double t) {
  check_f32(c, got, ref, n, t);
}

void finish(OutputCheck& c, std::size_t numel, double threshold) {
  if (numel == 0) c.mean_rel = 0.0;
  c.ok = threshold == 0.0 ? c.max_rel == 0.0 : (c.mean_rel < threshold && c.max_rel < 10.0 * threshold);
}

}  // namespace

OutputCheck check_output(const std::string& name, DType dtype, const void* got, const double* golden,
                         std::size_t numel, double threshold) {
  OutputCheck c;
  c.name = name;
  c.threshold = threshold;
  if (dtype == DType::F32) {
    check_f32_golden(c, static_cast<const float*>(got), golden, numel, threshold);
    finish(c, numel, threshold);
    return c;
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < numel; ++i) {
    const double g = golden[i];
    const double v = load_as_double(dtype, got, i);
    const double rel = rel_error(v, g);
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
  finish(c, numel, threshold);
  return c;
}

OutputCheck check_output_f32(const std::string& name, const float* got, const float* ref, std::size_t numel,
                             double threshold) {
  OutputCheck c;
  c.name = name;
  c.threshold = threshold;
  check_f32_float(c, got, ref, numel, threshold);
  finish(c, numel, threshold);
  return c;
}

}  // namespace kope
