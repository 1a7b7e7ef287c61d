#include "kope/eval/compare.h"

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

namespace kope::eval {

using nlohmann::json;

namespace {

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string line;
  while (std::getline(ss, line)) out.push_back(line);
  return out;
}

}  // namespace

Comparison compare_reports(const EvalReport& a, const EvalReport& b, int resamples) {
  Comparison c;
  c.a_task = a.task;
  c.b_task = b.task;
  c.a_kernel = a.kernel_name;
  c.b_kernel = b.kernel_name;
  auto find = [](const EvalReport& r, const std::string& name) -> const CaseResult* {
    for (const auto& x : r.cases)
      if (x.name == name) return &x;
    return nullptr;
  };
  auto add = [&](const CaseResult* ca, const CaseResult* cb) {
    CaseComparison row;
    row.name = ca ? ca->name : cb->name;
    row.in_a = ca != nullptr;
    row.in_b = cb != nullptr;
    if (ca) {
      row.a_status = std::string(case_status_name(ca->status));
      row.a_median_ns = ca->kernel_median_ns;
    }
    if (cb) {
      row.b_status = std::string(case_status_name(cb->status));
      row.b_median_ns = cb->kernel_median_ns;
    }
    if (row.a_median_ns && row.b_median_ns && *row.b_median_ns > 0) {
      row.speedup = *row.a_median_ns / *row.b_median_ns;
      if (!ca->kernel_ns.empty() && !cb->kernel_ns.empty())
        row.interval = speedup_interval(ca->kernel_ns, cb->kernel_ns, resamples);
    }
    c.cases.push_back(row);
  };
  for (const auto& ca : a.cases) add(&ca, find(b, ca.name));
  for (const auto& cb : b.cases)
    if (!find(a, cb.name)) add(nullptr, &cb);
  double log_sum = 0;
  int n = 0;
  for (const auto& row : c.cases)
    if (row.speedup && *row.speedup > 0) {
      log_sum += std::log(*row.speedup);
      ++n;
    }
  if (n > 0) c.speedup = std::exp(log_sum / n);
  return c;
}

json Comparison::to_json() const {
  json rows = json::array();
  for (const auto& r : cases)
    rows.push_back({{"case", r.name},
                    {"a_status", r.in_a ? json(r.a_status) : json(nullptr)},
                    {"b_status", r.in_b ? json(r.b_status) : json(nullptr)},
                    {"a_median_ns", opt(r.a_median_ns)},
                    {"b_median_ns", opt(r.b_median_ns)},
                    {"speedup_b_over_a", opt(r.speedup)},
                    {"speedup_ci95", r.interval ? json::array({r.interval->first, r.interval->second}) : json(nullptr)}});
  return {{"a", {{"evaluation_id", a_evaluation}, {"task", a_task}, {"kernel", a_kernel}}},
          {"b", {{"evaluation_id", b_evaluation}, {"task", b_task}, {"kernel", b_kernel}}},
          {"cases", rows},
          {"speedup_b_over_a", opt(speedup)}};
}

std::vector<DiffLine> diff_lines(const std::string& a, const std::string& b) {
  const std::vector<std::string> x = split_lines(a), y = split_lines(b);
  const std::size_t n = x.size(), m = y.size();
  // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] = x[i] == y[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<DiffLine> out;
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] == y[j]) {
      out.push_back({DiffLine::Kind::Same, static_cast<int>(i), static_cast<int>(j), x[i]});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out.push_back({DiffLine::Kind::Removed, static_cast<int>(i), -1, x[i]});
      ++i;
    } else {
      out.push_back({DiffLine::Kind::Added, -1, static_cast<int>(j), y[j]});
      ++j;
    }
  }
  return out;
}

}  // namespace kope::eval
