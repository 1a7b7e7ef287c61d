// The loop's stop rules beyond the attempt count: tokens, wall time, target speedup, patience, cancellation.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "kope/loop/loop.h"

namespace kope::loop {

struct StopState {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  int64_t tokens = 0;         // over the run
  int since_improvement = 0;  // in this task
};

struct StopDecision {
  std::string reason;   // "" : go on
  bool whole_run = false;  // the run ends, not only this task
};

StopDecision stop_reason(const LoopOptions& o, const StopState& s, double incumbent_speedup);

}  // namespace kope::loop
