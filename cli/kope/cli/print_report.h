// An evaluation's report as `kope eval` prints it: a line per case (status, error, accuracy, medians, speedup
// with its interval) and the result line.
#pragma once

#include <ostream>

#include "kope/loop/loop.h"
#include "kope/model/report.h"

namespace kope::cli {

void print_report(const EvalReport& report, std::ostream& out);

// A line per attempt of a loop (`kope run`, any policy) as it happens: name, status, speedup, accuracy, whether
// it was promoted or waits for review, the transcript of a model's attempt; a task's header; a skipped kernel.
void print_attempt(const loop::LoopEvent& e, std::ostream& err);

}  // namespace kope::cli
