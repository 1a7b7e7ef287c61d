// The judge's checks of timed calls: the same standard as the correctness call, against the baseline's output.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kope/model/check.h"
#include "kope/model/dtype.h"

namespace kope::exec {

// The threshold a timed call's output is held to against the baseline's output on the same inputs, given the
// task's threshold t and the baseline's own error against the golden on the case's seeded inputs. By the
// triangle inequality a kernel within t - e of the baseline (e the baseline's error, mean and max/10 whichever
// is larger) is within t of the truth: the timed calls are no looser than the correctness call. Where the
// baseline's own error is not small next to t (over t/4: a naive fp32 baseline summing a million terms, say), the
// baseline cannot stand in for the golden to within t: the limit is then t + e (what a kernel within t of the
// truth can differ from such a baseline), `sound` is false, and the failure message and the case's
// baseline_outputs say so. (The better fix for such a task is a baseline that accumulates in double.)
struct TimedLimit {
  double threshold = 0.0;
  double baseline_error = 0.0;  // max(mean, max/10) of the baseline against the golden
  bool sound = true;
};
TimedLimit timed_limit(double t, const OutputCheck& baseline_vs_golden);

// `got` against the baseline's output `ref` (same dtype) under check_output's rules with `threshold`, bits and
// ulps included: a vectorised pass for fp32, the element-by-element pass when that one is near a limit.
OutputCheck check_timed_output(const std::string& name, DType dtype, const void* got, const void* ref,
                               std::size_t numel, double threshold);

// Output `i` of case `c` on a timed call: check_timed_output against the baseline's output `ref`, or, for an
// "index_of" output, check_index_output against the baseline's indices, both pointing into `inputs` (the call's
// fresh inputs): the correctness call's rule for that output.
OutputCheck check_timed_case_output(const ConcreteCase& c, std::size_t i, const void* got, const void* ref,
                                    double threshold, const std::vector<const void*>& inputs);

// Folds one timed call's check into the worst seen so far over a case's timed calls: the largest mean and max
// errors and ulps, the fewest bits, and the worst element of the call with the largest max error.
void fold_worst(OutputCheck& worst, const OutputCheck& call, bool first);

// A timed call's failure in words: which call, which output and element, the values, and the limits.
std::string describe_timed_failure(const std::string& phase, const OutputCheck& o, const TimedLimit& limit,
                                   double task_threshold);

}  // namespace kope::exec
