// `kope doctor [--json]`: what this machine gives kope, each check with a verdict and what to do.
#pragma once

#include <ostream>

#include "kope/doctor/doctor.h"

namespace kope {

// Prints the report (text or JSON). Returns kExitOk, or kExitEnvironment when a check that makes verdicts
// impossible failed (no compiler).
int cli_doctor(bool json, std::ostream& out, std::ostream& err);

// The human-readable form: a line per check with its verdict, what to do under it, then the summary.
void print_doctor(const DoctorReport& report, std::ostream& out);

}  // namespace kope
