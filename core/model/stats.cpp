#include "kope/model/stats.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace kope {

namespace {

// The median of `v`, reordering it.
double median_inplace(std::vector<double>& v) {
  const std::size_t n = v.size();
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(v.begin(), mid, v.end());
  const double upper = *mid;
  if (n % 2) return upper;
  return 0.5 * (*std::max_element(v.begin(), mid) + upper);
}

}  // namespace

std::optional<SpeedupInterval> geomean_speedup_interval(const std::vector<std::vector<double>>& base_ns,
                                                        const std::vector<std::vector<double>>& kernel_ns,
                                                        int resamples, double confidence) {
  const std::size_t cases = base_ns.size();
  if (cases == 0 || kernel_ns.size() != cases || resamples < 1 || !(confidence > 0 && confidence < 1))
    return std::nullopt;
  for (std::size_t c = 0; c < cases; ++c) {
    if (base_ns[c].empty() || kernel_ns[c].empty()) return std::nullopt;
    std::vector<double> k = kernel_ns[c], b = base_ns[c];
    if (!(median_inplace(k) > 0) || !(median_inplace(b) > 0)) return std::nullopt;
  }
  std::mt19937_64 rng(0x6b6f70652d6369);
  std::vector<double> geo;
  geo.reserve(static_cast<std::size_t>(resamples));
  std::vector<double> b, k;
  for (int r = 0; r < resamples; ++r) {
    double log_sum = 0.0;
    bool ok = true;
    for (std::size_t c = 0; c < cases && ok; ++c) {
      const auto& bs = base_ns[c];
      const auto& ks = kernel_ns[c];
      b.resize(bs.size());
      k.resize(ks.size());
      std::uniform_int_distribution<std::size_t> pick_b(0, bs.size() - 1), pick_k(0, ks.size() - 1);
      for (auto& v : b) v = bs[pick_b(rng)];
      for (auto& v : k) v = ks[pick_k(rng)];
      const double mk = median_inplace(k), mb = median_inplace(b);
      ok = mk > 0 && mb > 0;
      if (ok) log_sum += std::log(mb / mk);
    }
    if (ok) geo.push_back(std::exp(log_sum / static_cast<double>(cases)));
  }
  if (geo.empty()) return std::nullopt;
  std::sort(geo.begin(), geo.end());
  const double tail = (1.0 - confidence) / 2.0;
  auto at = [&](double q) {
    return geo[static_cast<std::size_t>(std::lround(q * static_cast<double>(geo.size() - 1)))];
  };
  return SpeedupInterval{at(tail), at(1.0 - tail)};
}

std::optional<SpeedupInterval> task_speedup_interval(const std::vector<CaseResult>& cases, int resamples,
                                                     double confidence) {
  std::vector<std::vector<double>> base, kern;
  for (const CaseResult& c : cases) {
    base.push_back(c.baseline == "library" && !c.library_ns.empty() ? c.library_ns : c.baseline_ns);
    kern.push_back(c.kernel_ns);
  }
  return geomean_speedup_interval(base, kern, resamples, confidence);
}

std::optional<SpeedupInterval> task_speedup_interval_vs_naive(const std::vector<CaseResult>& cases, int resamples,
                                                              double confidence) {
  std::vector<std::vector<double>> base, kern;
  for (const CaseResult& c : cases) {
    base.push_back(c.baseline_ns);
    kern.push_back(c.kernel_ns);
  }
  return geomean_speedup_interval(base, kern, resamples, confidence);
}

bool faster_than_hardware_floor(const CaseResult& c) {
  return c.kernel_median_ns && c.hw_bound_ns && *c.hw_bound_ns > kFloorMinNs &&
         *c.kernel_median_ns < kFloorFraction * *c.hw_bound_ns;
}

}  // namespace kope
