// Output checks against the fp64 golden or a trusted output: relative errors, CANN's limits, bits and ulps.
#include "kope/model/check.h"

#include <sstream>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "kope/base/target_clones.h"

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

// The golden as the output's dtype holds it where it leaves that dtype's range: a finite golden beyond the largest
// finite value rounds to an infinity (IEEE round to nearest), as storing the exact result in that dtype does, so a
// kernel whose result overflows there is right and one that saturates is wrong. Inside the range the golden stays
// in double.
inline double as_stored_f32(double g) {
  constexpr double kOverflow = 0x1.ffffffp127;  // FLT_MAX + half its ulp: from here on rounding to float gives inf
  return std::fabs(g) >= kOverflow ? std::copysign(std::numeric_limits<double>::infinity(), g) : g;
}

inline double as_stored(DType dtype, double g) {
  if (!is_floating(dtype) || dtype == DType::F64 || !std::isfinite(g)) return g;
  const double r = round_to(dtype, g);
  return std::isinf(r) ? r : g;
}

// A float's bit pattern as an integer that orders like the float (-0 and +0 one apart): the difference of two
// is their distance in ulps.
inline int64_t ordered(float f) {
  const uint32_t u = std::bit_cast<uint32_t>(f);
  return (u >> 31) ? -static_cast<int64_t>(u & 0x7fffffffu) : static_cast<int64_t>(u);
}

// The ulps between v and g rounded to float; 0 where the relative error says exact (equal NaNs, equal
// infinities), infinite where it says infinitely wrong.
inline double ulps_f32(float v, float g_rounded, double rel) {
  const int64_t d = ordered(v) - ordered(g_rounded);
  const double dist = static_cast<double>(d < 0 ? -d : d);
  return rel == std::numeric_limits<double>::infinity() ? rel : rel == 0.0 ? 0.0 : dist;
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
  double sum = 0.0, best = -1.0, ulps = 0.0;
  int64_t mismatches = 0;
  std::size_t best_block = 0;
  for (std::size_t b = 0; b < numel; b += kBlock) {
    const std::size_t e = std::min(numel, b + kBlock);
    double bs = 0.0, bm = 0.0, bu = 0.0;
    int64_t bc = 0;
#pragma omp simd reduction(+ : bs, bc) reduction(max : bm, bu)
    for (std::size_t i = b; i < e; ++i) {
      const double rel = rel_error_branchless(static_cast<double>(got[i]), as_stored_f32(static_cast<double>(ref[i])));
      const double u = ulps_f32(got[i], static_cast<float>(ref[i]), rel);
      bs += rel;
      bm = bm > rel ? bm : rel;
      bu = bu > u ? bu : u;
      bc += (rel > limit || (threshold == 0.0 && rel > 0.0)) ? 1 : 0;
    }
    sum += bs;
    mismatches += bc;
    ulps = std::max(ulps, bu);
    if (bm > best) {
      best = bm;
      best_block = b;
    }
  }
  c.mismatches = mismatches;
  c.max_ulps = ulps;
  if (numel == 0) return;
  const std::size_t e = std::min(numel, best_block + kBlock);
  for (std::size_t i = best_block; i < e; ++i) {
    const double g = as_stored_f32(static_cast<double>(ref[i])), v = static_cast<double>(got[i]);
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

void finish(OutputCheck& c, DType dtype, std::size_t numel, double threshold) {
  if (numel == 0) c.mean_rel = 0.0;
  c.ok = threshold == 0.0 ? c.max_rel == 0.0 : (c.mean_rel < threshold && c.max_rel < 10.0 * threshold);
  set_accuracy(c, dtype);
}

}  // namespace

int significand_bits(DType dtype) {
  switch (dtype) {
    case DType::F32: return 24;
    case DType::F64: return 53;
    case DType::F16: return 11;
    case DType::BF16: return 8;
    default: return 0;
  }
}

double accuracy_bits(DType dtype, double rel) {
  const int cap = significand_bits(dtype);
  if (cap == 0) return -1.0;
  if (std::isnan(rel)) return 0.0;
  if (rel <= 0.0) return cap;
  return std::clamp(-std::log2(rel), 0.0, static_cast<double>(cap));
}

void set_accuracy(OutputCheck& c, DType dtype) {
  c.bits = accuracy_bits(dtype, c.max_rel);
  c.mean_bits = accuracy_bits(dtype, c.mean_rel);
}

double ulp_distance(DType dtype, double v, double g) {
  const double rel = rel_error(v, g);
  if (rel == 0.0 || rel == std::numeric_limits<double>::infinity()) return rel;
  if (!is_floating(dtype)) return std::fabs(v - g);
  if (dtype == DType::F32) return ulps_f32(static_cast<float>(v), static_cast<float>(g), rel);
  if (dtype == DType::F64) {
    auto ord = [](double d) {
      const uint64_t u = std::bit_cast<uint64_t>(d);
      return (u >> 63) ? -static_cast<long double>(u & 0x7fffffffffffffffULL) : static_cast<long double>(u);
    };
    return static_cast<double>(std::fabs(ord(v) - ord(g)));
  }
  // fp16 and bf16: the 16-bit patterns, g rounded to the dtype on the way.
  uint16_t vb = 0, gb = 0;
  store_from_double(dtype, &vb, 0, v);
  store_from_double(dtype, &gb, 0, round_to(dtype, g));
  auto ord16 = [](uint16_t u) { return (u >> 15) ? -static_cast<int32_t>(u & 0x7fffu) : static_cast<int32_t>(u); };
  return std::fabs(static_cast<double>(ord16(vb) - ord16(gb)));
}

OutputCheck check_output(const std::string& name, DType dtype, const void* got, const double* golden,
                         std::size_t numel, double threshold) {
  OutputCheck c;
  c.name = name;
  c.threshold = threshold;
  if (dtype == DType::F32) {
    check_f32_golden(c, static_cast<const float*>(got), golden, numel, threshold);
    finish(c, dtype, numel, threshold);
    return c;
  }
  double sum = 0.0;
  for (std::size_t i = 0; i < numel; ++i) {
    const double g = as_stored(dtype, golden[i]);
    const double v = load_as_double(dtype, got, i);
    const double rel = rel_error(v, g);
    sum += rel;
    c.max_ulps = std::max(c.max_ulps, ulp_distance(dtype, v, g));
    if (rel > 10.0 * threshold || (threshold == 0.0 && rel > 0.0)) ++c.mismatches;
    if (rel > c.max_rel || c.worst_index < 0) {
      c.max_rel = rel;
      c.worst_index = static_cast<int64_t>(i);
      c.expected = g;
      c.got = v;
    }
  }
  c.mean_rel = numel ? sum / static_cast<double>(numel) : 0.0;
  finish(c, dtype, numel, threshold);
  return c;
}

OutputCheck check_output_f32(const std::string& name, const float* got, const float* ref, std::size_t numel,
                             double threshold) {
  OutputCheck c;
  c.name = name;
  c.threshold = threshold;
  check_f32_float(c, got, ref, numel, threshold);
  finish(c, DType::F32, numel, threshold);
  return c;
}

std::string describe_check(const OutputCheck& o) {
  std::ostringstream s;
  s.precision(9);
  if (!o.note.empty()) {  // an index output: which index, and what it points at
    s << "output " << o.name << ": " << o.mismatches << " index(es) wrong; first at element " << o.worst_index
      << ": " << o.note;
    return s.str();
  }
  s << "output " << o.name << ": mean rel err " << o.mean_rel << ", max rel err " << o.max_rel << " (limits "
    << o.threshold << " and " << 10 * o.threshold << "), " << o.mismatches
    << " element(s) out of tolerance; worst at index " << o.worst_index << ": expected " << o.expected << ", got "
    << o.got;
  return s.str();
}

}  // namespace kope
