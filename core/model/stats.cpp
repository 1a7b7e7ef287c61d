#include "kope/model/stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

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

namespace {

// The samples a case's speedup is against: the library's where the case was timed against it, else the naive
// baseline's; always the naive one for the second column.
const std::vector<double>& baseline_samples(const CaseResult& c, bool vs_naive) {
  return !vs_naive && c.baseline == "library" && !c.library_ns.empty() ? c.library_ns : c.baseline_ns;
}

std::optional<SpeedupInterval> cases_interval(const std::vector<CaseResult>& cases, bool vs_naive, int resamples,
                                              double confidence) {
  std::vector<std::vector<double>> base, kern;
  for (const CaseResult& c : cases) {
    base.push_back(baseline_samples(c, vs_naive));
    kern.push_back(c.kernel_ns);
  }
  return geomean_speedup_interval(base, kern, resamples, confidence);
}

}  // namespace

std::optional<SpeedupInterval> task_speedup_interval(const std::vector<CaseResult>& cases, int resamples,
                                                     double confidence) {
  return cases_interval(cases, false, resamples, confidence);
}

std::optional<SpeedupInterval> task_speedup_interval_vs_naive(const std::vector<CaseResult>& cases, int resamples,
                                                              double confidence) {
  return cases_interval(cases, true, resamples, confidence);
}

namespace {

// P(|T| <= sqrt(dof) tan(theta)) for Student's t with an integer `dof`: the closed forms of Abramowitz and Stegun
// 26.7.3 (odd) and 26.7.4 (even), finite series in cos(theta).
double t_central_mass(double theta, int dof) {
  const double c2 = std::cos(theta) * std::cos(theta);
  double term = 1, sum = 1;
  if (dof % 2 == 0) {
    for (int j = 1; j <= (dof - 2) / 2; ++j) sum += term *= (2.0 * j - 1) / (2.0 * j) * c2;
    return std::sin(theta) * sum;
  }
  if (dof == 1) return 2 * theta / M_PI;
  for (int j = 1; j <= (dof - 3) / 2; ++j) sum += term *= (2.0 * j) / (2.0 * j + 1) * c2;
  return 2 / M_PI * (theta + std::sin(theta) * std::cos(theta) * sum);
}

}  // namespace

double student_t_quantile(double p, int dof) {
  if (!(p > 0 && p < 1) || dof < 1) throw std::invalid_argument("student_t_quantile: p in (0,1), dof >= 1");
  if (p < 0.5) return -student_t_quantile(1 - p, dof);
  // The mass is increasing in theta on [0, pi/2): bisection to the last bit.
  const double want = 2 * p - 1;
  double lo = 0, hi = M_PI / 2;
  for (int i = 0; i < 64; ++i) {
    const double mid = 0.5 * (lo + hi);
    (t_central_mass(mid, dof) < want ? lo : hi) = mid;
  }
  return std::sqrt(static_cast<double>(dof)) * std::tan(0.5 * (lo + hi));
}

BetweenEvaluations between_evaluations(const std::vector<BaselineMedian>& rows) {
  // group -> case -> (sum of logs, count); group -> evaluation -> case -> log
  std::map<std::string, std::map<std::string, std::pair<double, int>>> case_mean;
  std::map<std::string, std::map<int64_t, std::vector<std::pair<std::string, double>>>> evals;
  for (const BaselineMedian& r : rows) {
    if (!(r.median_ns > 0) || !std::isfinite(r.median_ns)) continue;
    const double l = std::log(r.median_ns);
    auto& m = case_mean[r.group][r.case_name];
    m.first += l;
    ++m.second;
    evals[r.group][r.evaluation].push_back({r.case_name, l});
  }
  BetweenEvaluations out;
  double ss = 0;
  for (const auto& [group, by_eval] : evals) {
    out.evaluations += static_cast<int>(by_eval.size());
    if (by_eval.size() < 2) continue;
    ++out.tasks;
    std::vector<double> shift;
    for (const auto& [e, cases] : by_eval) {
      double d = 0;
      for (const auto& [name, l] : cases) {
        const auto& m = case_mean[group][name];
        d += l - m.first / m.second;
      }
      shift.push_back(d / static_cast<double>(cases.size()));
    }
    double mean = 0;
    for (double d : shift) mean += d / static_cast<double>(shift.size());
    for (double d : shift) ss += (d - mean) * (d - mean);
    out.dof += static_cast<int>(shift.size()) - 1;
  }
  if (out.dof > 0) out.sd_log = std::sqrt(ss / out.dof);
  return out;
}

SpeedupInterval widen_between_evaluations(const SpeedupInterval& iv, double point, const BetweenEvaluations& b,
                                          double confidence) {
  if (b.dof < kBetweenMinDof || !(b.sd_log > 0) || !(point > 0) || !(iv.low > 0) || !(iv.high > 0)) return iv;
  const double w = student_t_quantile(0.5 + confidence / 2, b.dof) * std::sqrt(2.0) * b.sd_log;
  const double m = std::log(point);
  const double below = std::max(0.0, m - std::log(iv.low)), above = std::max(0.0, std::log(iv.high) - m);
  return {std::exp(m - std::hypot(below, w)), std::exp(m + std::hypot(above, w))};
}

std::optional<SpeedupInterval> report_speedup_interval(const EvalReport& rep, bool vs_naive, double confidence) {
  return widen_report_interval(rep, cases_interval(rep.cases, vs_naive, 2000, confidence), vs_naive, confidence);
}

std::optional<SpeedupInterval> widen_report_interval(const EvalReport& rep, const std::optional<SpeedupInterval>& iv,
                                                     bool vs_naive, double confidence) {
  if (!iv || !rep.between) return iv;
  // The point the interval is around: the geometric mean of the cases' median ratios, as the bootstrap's.
  double log_sum = 0;
  for (const CaseResult& c : rep.cases)
    log_sum += std::log(median(baseline_samples(c, vs_naive)) / median(c.kernel_ns));
  return widen_between_evaluations(*iv, std::exp(log_sum / static_cast<double>(rep.cases.size())), *rep.between,
                                   confidence);
}

bool faster_than_hardware_floor(const CaseResult& c) {
  return c.kernel_median_ns && c.hw_bound_ns && *c.hw_bound_ns > kFloorMinNs &&
         *c.kernel_median_ns < kFloorFraction * *c.hw_bound_ns;
}

}  // namespace kope
