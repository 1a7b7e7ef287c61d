#include "kope/loop/stop_rules.h"

namespace kope::loop {

StopDecision stop_reason(const LoopOptions& o, const StopState& s, double incumbent_speedup) {
  return stop_reason(o, s, s.since_improvement, incumbent_speedup);
}

StopDecision stop_reason(const LoopOptions& o, const StopState& s, int since_improvement, double incumbent_speedup) {
  if (o.cancel && o.cancel->load()) return {"cancelled", true};
  const int64_t tokens = s.tokens.load();
  if (o.max_tokens_total > 0 && tokens >= o.max_tokens_total)
    return {"token budget spent (" + std::to_string(tokens) + " of " + std::to_string(o.max_tokens_total) + ")", true};
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - s.started).count();
  if (o.max_wall_seconds > 0 && wall >= o.max_wall_seconds)
    return {"wall time spent (" + std::to_string(static_cast<long>(wall)) + " s)", true};
  if (o.target_speedup > 0 && incumbent_speedup >= o.target_speedup)
    return {"target speedup " + std::to_string(o.target_speedup) + "x reached", false};
  if (o.patience > 0 && since_improvement >= o.patience)
    return {std::to_string(since_improvement) + " attempts without improvement", false};
  return {};
}

}  // namespace kope::loop
