// The evidence behind a verdict: the bootstrap interval of a task's speedup, and the hardware-floor check.
#pragma once

#include <optional>
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

// Flushed caches and rotated inputs leave no honest way under half the memory-bound floor: a case whose
// kernel median is below 0.5 x hw_bound_ns, where the floor is above 1000 ns (below that, timer and call
// overheads dominate). Such a kernel is flagged and never promoted without a person's approval.
inline constexpr double kFloorFraction = 0.5;
inline constexpr double kFloorMinNs = 1000.0;
bool faster_than_hardware_floor(const CaseResult& c);

}  // namespace kope
