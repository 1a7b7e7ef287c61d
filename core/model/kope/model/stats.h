// The evidence behind a verdict: the bootstrap interval of a task's speedup, the spread of whole evaluations that
// widens it, and the hardware-floor check.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kope/model/report.h"

namespace kope {

struct SpeedupInterval {
  double low = 0.0;
  double high = 0.0;
};

// A bootstrap interval of the geometric mean over cases of each case's median(baseline) / median(kernel):
// every resample redraws each case's baseline and kernel samples (with replacement, independently), so the
// interval carries the timing noise of every case. `base_ns[i]` and `kernel_ns[i]` are case i's samples.
// Deterministic (a fixed seed). nullopt when there are no cases or a case has no samples or a zero median.
std::optional<SpeedupInterval> geomean_speedup_interval(const std::vector<std::vector<double>>& base_ns,
                                                        const std::vector<std::vector<double>>& kernel_ns,
                                                        int resamples = 2000, double confidence = 0.95);

// The same over the cases of a report: each case's kernel_ns against the baseline its speedup is against
// (library_ns where the case's `baseline` is "library", else baseline_ns).
std::optional<SpeedupInterval> task_speedup_interval(const std::vector<CaseResult>& cases, int resamples = 2000,
                                                     double confidence = 0.95);
// Always against the naive baseline (baseline_ns): the second column, and like with like for an incumbent
// measured before the library baseline.
std::optional<SpeedupInterval> task_speedup_interval_vs_naive(const std::vector<CaseResult>& cases,
                                                              int resamples = 2000, double confidence = 0.95);

// One case's baseline median in one earlier evaluation: `group` names what makes medians comparable (the task and
// its digest: the same cases and the same baseline build).
struct BaselineMedian {
  int64_t evaluation = 0;
  std::string group;
  std::string case_name;
  double median_ns = 0.0;
};
// The pooled spread of whole evaluations from `rows`: in each group, each evaluation's mean over its cases of
// log(median) less the case's mean over the group's evaluations; its variance pooled over groups, with one degree
// of freedom per evaluation beyond the first of its group. dof 0 when no group has two evaluations. Rows with a
// median that is not positive and finite are left out.
BetweenEvaluations between_evaluations(const std::vector<BaselineMedian>& rows);

// The fewest degrees of freedom that make an estimate worth adding (below it the interval holds one evaluation's
// noise only, and says so).
inline constexpr int kBetweenMinDof = 4;

// The p quantile of Student's t with `dof` degrees of freedom (p in (0, 1), dof >= 1).
double student_t_quantile(double p, int dof);

// `iv` around the speedup `point`, with the between-evaluation term added in log space on each side: the kernel's
// and the baseline's evaluations each move by sd_log, independently, so the log speedup by sqrt(2) sd_log, scaled
// by the t quantile of its degrees of freedom. `iv` unchanged when `b` has fewer than kBetweenMinDof.
SpeedupInterval widen_between_evaluations(const SpeedupInterval& iv, double point, const BetweenEvaluations& b,
                                          double confidence = 0.95);

// A report's task interval (against the baseline its speedup is against, or the naive one), with its
// between-evaluation term when the report carries one: what promotion and the attempt's record use.
std::optional<SpeedupInterval> report_speedup_interval(const EvalReport& rep, bool vs_naive = false,
                                                       double confidence = 0.95);
// `iv`, that bootstrap already made for the report's cases, widened as report_speedup_interval widens it (for a
// caller that shows both).
std::optional<SpeedupInterval> widen_report_interval(const EvalReport& rep, const std::optional<SpeedupInterval>& iv,
                                                     bool vs_naive = false, double confidence = 0.95);

// Flushed caches and rotated inputs leave no honest way under half the memory-bound floor: a case whose
// kernel median is below 0.5 x hw_bound_ns, where the floor is above 1000 ns (below that, timer and call
// overheads dominate). Such a kernel is flagged and never promoted without a person's approval.
inline constexpr double kFloorFraction = 0.5;
inline constexpr double kFloorMinNs = 1000.0;
bool faster_than_hardware_floor(const CaseResult& c);

}  // namespace kope
