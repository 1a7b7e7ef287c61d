// EvalReport's verdicts and figures, its JSON, and the statistics they rest on.
#include "kope/model/report.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace kope {

using nlohmann::json;

std::string_view case_status_name(CaseStatus s) {
  switch (s) {
    case CaseStatus::Passed: return "passed";
    case CaseStatus::Wrong: return "wrong";
    case CaseStatus::Crash: return "crash";
    case CaseStatus::Timeout: return "timeout";
    case CaseStatus::RuntimeError: return "runtime_error";
    case CaseStatus::LoadError: return "load_error";
    case CaseStatus::InputsModified: return "inputs_modified";
    case CaseStatus::Background: return "background_work";
    case CaseStatus::Cancelled: return "cancelled";
  }
  return "?";
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

namespace {

// A sample sorted once, for bootstrap medians: a resample's median depends only on the ranks drawn, so each
// resample counts ranks (O(n)) instead of copying and sorting values. Same draws, same medians as sorting.
struct RankedSample {
  std::vector<double> sorted;
  std::vector<uint32_t> rank;  // rank[i]: the position of sample i in `sorted`
  std::vector<uint32_t> count;
  explicit RankedSample(const std::vector<double>& v) : sorted(v), rank(v.size()), count(v.size()) {
    std::vector<uint32_t> order(v.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return v[a] < v[b]; });
    for (uint32_t r = 0; r < order.size(); ++r) {
      sorted[r] = v[order[r]];
      rank[order[r]] = r;
    }
  }
  template <typename Pick>
  double resample_median(Pick&& pick) {
    const std::size_t n = rank.size();
    std::fill(count.begin(), count.end(), 0u);
    for (std::size_t i = 0; i < n; ++i) ++count[rank[pick()]];
    const std::size_t lo_at = (n - 1) / 2, hi_at = n / 2;  // the middle order statistics (equal when n is odd)
    std::size_t seen = 0, lo = 0, hi = 0;
    for (std::size_t r = 0; r < n; ++r) {
      if (seen <= lo_at && lo_at < seen + count[r]) lo = r;
      if (seen <= hi_at && hi_at < seen + count[r]) {
        hi = r;
        break;
      }
      seen += count[r];
    }
    return n % 2 ? sorted[hi] : 0.5 * (sorted[lo] + sorted[hi]);
  }
};

}  // namespace

std::pair<double, double> speedup_interval(const std::vector<double>& base, const std::vector<double>& kern,
                                           int resamples) {
  if (base.empty() || kern.empty() || resamples < 1) return {0.0, 0.0};
  std::mt19937_64 rng(0x6b6f7065);
  std::vector<double> ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  std::uniform_int_distribution<std::size_t> pick_b(0, base.size() - 1), pick_k(0, kern.size() - 1);
  RankedSample b(base), k(kern);
  for (int r = 0; r < resamples; ++r) {
    const double mb = b.resample_median([&] { return pick_b(rng); });
    const double mk = k.resample_median([&] { return pick_k(rng); });
    if (mk > 0) ratios.push_back(mb / mk);
  }
  if (ratios.empty()) return {0.0, 0.0};
  std::sort(ratios.begin(), ratios.end());
  auto at = [&](double q) { return ratios[static_cast<std::size_t>(q * static_cast<double>(ratios.size() - 1))]; };
  return {at(0.025), at(0.975)};
}

bool EvalReport::correct() const {
  if (cancelled || !compiled || cases.empty()) return false;
  return std::all_of(cases.begin(), cases.end(), [](const CaseResult& c) { return c.correct(); });
}

std::string EvalReport::status() const {
  if (cancelled) return "cancelled";
  if (!compiled) return "compile_error";
  for (const auto& c : cases)
    if (!c.correct()) return std::string(case_status_name(c.status));
  return cases.empty() ? "no_cases" : "passed";
}

std::optional<double> EvalReport::speedup() const {
  if (!correct()) return std::nullopt;
  double log_sum = 0.0;
  for (const auto& c : cases) {
    if (!c.speedup || *c.speedup <= 0) return std::nullopt;
    log_sum += std::log(*c.speedup);
  }
  return std::exp(log_sum / static_cast<double>(cases.size()));
}

namespace {

// The fewest bits or the most ulps over the floating outputs that `pick` gives for each case.
template <typename Pick>
std::optional<double> fold_accuracy(const std::vector<CaseResult>& cases, Pick pick, bool bits) {
  std::optional<double> v;
  for (const auto& c : cases)
    for (const OutputCheck& o : pick(c)) {
      if (o.bits < 0) continue;  // an integer output
      const double x = bits ? o.bits : o.max_ulps;
      v = !v ? x : bits ? std::min(*v, x) : std::max(*v, x);
    }
  return v;
}

const std::vector<OutputCheck>& first_call(const CaseResult& c) { return c.outputs; }
const std::vector<OutputCheck>& timed_calls(const CaseResult& c) { return c.timed_worst; }

}  // namespace

std::optional<double> EvalReport::accuracy_bits() const { return fold_accuracy(cases, first_call, true); }
std::optional<double> EvalReport::accuracy_max_ulps() const { return fold_accuracy(cases, first_call, false); }
std::optional<double> EvalReport::timed_accuracy_bits() const { return fold_accuracy(cases, timed_calls, true); }
std::optional<double> EvalReport::timed_accuracy_max_ulps() const { return fold_accuracy(cases, timed_calls, false); }

std::optional<double> EvalReport::speedup_vs_naive() const {
  if (!correct()) return std::nullopt;
  double log_sum = 0.0;
  for (const auto& c : cases) {
    const std::optional<double> s = c.speedup_vs_naive;
    if (!s || *s <= 0) return std::nullopt;
    log_sum += std::log(*s);
  }
  return std::exp(log_sum / static_cast<double>(cases.size()));
}

std::string EvalReport::baseline() const {
  int lib = 0, naive = 0;
  for (const auto& c : cases) {
    if (!c.speedup) continue;
    (c.baseline == "library" ? lib : naive) += 1;
  }
  if (lib && naive) return "mixed";
  return lib ? "library" : "naive";
}

std::optional<bool> EvalReport::library_correct() const {
  std::optional<bool> all;
  for (const auto& c : cases)
    if (c.library_correct) all = all.value_or(true) && *c.library_correct;
  return all;
}

double EvalReport::score() const {
  if (cancelled || !compiled) return 0.0;
  double sum = 0.0;
  for (const auto& c : cases)
    if (c.correct()) sum += 0.3 + 0.5 * c.hap.value_or(0.5);
  return 100.0 * (0.2 + (cases.empty() ? 0.0 : sum / static_cast<double>(cases.size())));
}

double hardware_aware_position(double base_ns, double cand_ns, double hw_ns) {
  const double gain = base_ns - hw_ns;
  const double denom = (cand_ns - hw_ns) + gain;
  if (gain <= 0 || denom <= 0) return cand_ns <= base_ns ? 1.0 : 0.0;
  return std::clamp(gain / denom, 0.0, 1.0);
}

}  // namespace kope
