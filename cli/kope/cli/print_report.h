// An evaluation's report as `kope eval` prints it: a line per case (status, error, accuracy, medians, speedup
// with its interval) and the result line.
#pragma once

#include <ostream>

#include "kope/loop/loop.h"
#include "kope/model/progress.h"
#include "kope/model/report.h"

namespace kope::cli {

void print_report(const EvalReport& report, std::ostream& out);

// A line per attempt of a loop (`kope run`, any policy) as it happens: name, status, speedup, accuracy, whether
// it was promoted or waits for review, the transcript of a model's attempt; a task's header; a skipped kernel.
void print_attempt(const loop::LoopEvent& e, std::ostream& err);

// A line each time the fp64 reference finishes golden outputs of a task's cases (the first evaluation of a task;
// minutes for the big L4 cases); nothing for the other phases. Safe from any thread.
void print_goldens(const std::string& task, const EvalProgress& p, std::ostream& err);

}  // namespace kope::cli
