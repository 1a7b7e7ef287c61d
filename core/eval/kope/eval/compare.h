// Two kernel versions side by side: per case both medians, the speedup of B over A with its bootstrap interval,
// and correctness; and a line diff of their sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/model/report.h"

namespace kope::eval {

struct CaseComparison {
  std::string name;
  bool in_a = false, in_b = false;
  std::string a_status, b_status;  // empty where the case was not evaluated
  std::optional<double> a_median_ns, b_median_ns;
  // median(A) / median(B): above 1, B is faster; with a 95% bootstrap interval over both sets of samples.
  std::optional<double> speedup;
  std::optional<std::pair<double, double>> interval;
};

struct Comparison {
  int64_t a_evaluation = 0, b_evaluation = 0;
  std::string a_task, b_task, a_kernel, b_kernel;
  std::vector<CaseComparison> cases;  // A's order, then the cases only B has
  std::optional<double> speedup;      // geometric mean over the cases both timed
  nlohmann::json to_json() const;
};

Comparison compare_reports(const EvalReport& a, const EvalReport& b, int resamples = 2000);

struct DiffLine {
  enum class Kind { Same, Removed, Added };
  Kind kind = Kind::Same;
  int a_line = -1, b_line = -1;  // 0-based; -1 on the side that lacks it
  std::string text;
};

// A shortest line diff (LCS) of two texts, in order.
std::vector<DiffLine> diff_lines(const std::string& a, const std::string& b);

}  // namespace kope::eval
