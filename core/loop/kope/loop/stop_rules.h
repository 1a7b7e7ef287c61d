// The loop's stop rules beyond the attempt count: tokens, wall time, target speedup, patience, cancellation.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "kope/loop/loop.h"

namespace kope::loop {

struct StopState {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::atomic<int64_t> tokens{0};  // over the run (tasks in flight at once add to it)
  int since_improvement = 0;       // in this task (StopState::since_improvement of a lone task, or the task's own)
};

struct StopDecision {
  std::string reason;   // "" : go on
  bool whole_run = false;  // the run ends, not only this task
};

StopDecision stop_reason(const LoopOptions& o, const StopState& s, double incumbent_speedup);
// The same with the task's own count of attempts without improvement (tasks in flight at once share `run`).
StopDecision stop_reason(const LoopOptions& o, const StopState& run, int since_improvement, double incumbent_speedup);

}  // namespace kope::loop
