// An evaluation's report as `kope eval` prints it: a line per case (status, error, accuracy, medians, speedup
// with its interval) and the result line.
#pragma once

#include <ostream>

#include "kope/model/report.h"

namespace kope::cli {

void print_report(const EvalReport& report, std::ostream& out);

}  // namespace kope::cli
