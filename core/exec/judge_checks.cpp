// The judge's checks of timed calls against the baseline's output (see kope/judge_checks.h).
#include "kope/exec/judge_checks.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <vector>

namespace kope::exec {

TimedLimit timed_limit(double t, const OutputCheck& baseline_vs_golden) {
  TimedLimit l;
  l.baseline_error = std::max(baseline_vs_golden.mean_rel, baseline_vs_golden.max_rel / 10.0);
  if (!std::isfinite(l.baseline_error)) l.baseline_error = t;
  if (t == 0.0) return l;  // exact tasks: exact against the baseline, whose output is exact
  if (l.baseline_error > t / 4.0) {
    l.sound = false;
    l.threshold = t + l.baseline_error;
    return l;
  }
  l.threshold = t - l.baseline_error;
  return l;
}

namespace {

inline int64_t ordered32(uint32_t u) {
  return (u >> 31) ? -static_cast<int64_t>(u & 0x7fffffffu) : static_cast<int64_t>(u);
}

}  // namespace

OutputCheck check_timed_output(const std::string& name, DType dtype, const void* got, const void* ref,
                               std::size_t numel, double threshold) {
  if (threshold == 0.0 && std::memcmp(got, ref, numel * dtype_size(dtype)) == 0) {
    OutputCheck c;
    c.name = name;
    c.ok = true;
    set_accuracy(c, dtype);
    return c;
  }
  if (dtype == DType::F32 && threshold > 0.0 && numel > 0) {
    const float* g = static_cast<const float*>(got);
    const float* r = static_cast<const float*>(ref);
    double sum = 0.0;
    float mx = 0.0f;
    uint32_t odd = 0, ulps = 0;
    for (std::size_t b = 0; b < numel; b += 4096) {
      const std::size_t e = std::min(numel, b + 4096);
      float bs = 0.0f, bm = 0.0f;
      uint32_t bo = 0, bu = 0;
#pragma omp simd reduction(+ : bs) reduction(max : bm, bu) reduction(| : bo)
      for (std::size_t i = b; i < e; ++i) {
        uint32_t gv, rv;
        std::memcpy(&gv, &g[i], 4);
        std::memcpy(&rv, &r[i], 4);
        bo |= ((gv & 0x7f800000u) == 0x7f800000u) | ((rv & 0x7f800000u) == 0x7f800000u);
        const float rel = std::fabs(g[i] - r[i]) / (std::fabs(r[i]) + 1e-7f);
        const int64_t d = ordered32(gv) - ordered32(rv);  // both finite here when bo stays 0
        const uint32_t u = static_cast<uint32_t>(std::min<int64_t>(d < 0 ? -d : d, 0xffffffffLL));
        bs += rel;
        bm = bm > rel ? bm : rel;
        bu = bu > u ? bu : u;
      }
      sum += bs;
      mx = std::max(mx, bm);
      odd |= bo;
      ulps = std::max(ulps, bu);
    }
    const double mean = sum / static_cast<double>(numel);
    // Clearly inside both limits and nothing non-finite: passed. Anything near a limit: the exact pass decides.
    if (!odd && mean < 0.9 * threshold && mx < 9.0 * threshold) {
      OutputCheck c;
      c.name = name;
      c.threshold = threshold;
      c.mean_rel = mean;
      c.max_rel = mx;
      c.max_ulps = ulps;
      c.ok = true;
      set_accuracy(c, dtype);
      return c;
    }
  }
  std::vector<double> wide(numel);
  for (std::size_t i = 0; i < numel; ++i) wide[i] = load_as_double(dtype, ref, i);
  return check_output(name, dtype, got, wide.data(), numel, threshold);
}

OutputCheck check_timed_case_output(const ConcreteCase& c, std::size_t i, const void* got, const void* ref,
                                    double threshold, const std::vector<const void*>& inputs) {
  const ConcreteTensor& out = c.outputs[i];
  const auto n = static_cast<std::size_t>(out.numel);
  if (out.index_of < 0) return check_timed_output(out.name, out.dtype, got, ref, n, threshold);
  std::vector<double> wide(n);
  for (std::size_t e = 0; e < n; ++e) wide[e] = load_as_double(out.dtype, ref, e);
  return check_case_output(c, i, got, wide.data(), threshold, inputs);
}

void fold_worst(OutputCheck& worst, const OutputCheck& call, bool first) {
  if (first) {
    worst = call;
    return;
  }
  if (call.max_rel > worst.max_rel) {
    worst.max_rel = call.max_rel;
    worst.worst_index = call.worst_index;
    worst.expected = call.expected;
    worst.got = call.got;
  }
  worst.mean_rel = std::max(worst.mean_rel, call.mean_rel);
  worst.max_ulps = std::max(worst.max_ulps, call.max_ulps);
  worst.mismatches = std::max(worst.mismatches, call.mismatches);
  worst.bits = std::min(worst.bits, call.bits);
  worst.mean_bits = std::min(worst.mean_bits, call.mean_bits);
  worst.ok = worst.ok && call.ok;
}

std::string describe_timed_failure(const std::string& phase, const OutputCheck& o, const TimedLimit& limit,
                                   double task_threshold) {
  std::ostringstream s;
  s.precision(9);
  s << "correct on the correctness run but wrong on a timed run (" << phase
    << ", fresh inputs, checked against the baseline's output on the same inputs with the correctness run's "
       "standard: ";
  if (task_threshold == 0.0) s << "exactly equal";
  else s << "mean rel err < " << o.threshold << " and max < " << 10 * o.threshold << ", the task's threshold "
         << task_threshold;
  if (task_threshold == 0.0) {
  } else if (limit.sound) s << " less the baseline's own error " << limit.baseline_error;
  else s << " plus the baseline's own error " << limit.baseline_error
         << ", which is not small next to it, so the baseline stands in for the golden only that closely";
  s << "): output " << o.name << ": mean rel err " << o.mean_rel << ", max rel err " << o.max_rel << ", "
    << o.mismatches << " element(s) out of tolerance; worst at index " << o.worst_index << ": baseline "
    << o.expected << ", kernel " << o.got;
  if (!o.note.empty()) s << " (" << o.note << ", the baseline's index standing for the golden's)";
  return s.str();
}

}  // namespace kope::exec
