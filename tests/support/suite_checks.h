// What the suite tests (tests/eval/test_suite_*.cpp) share: one workspace per test file, so a task's goldens are
// computed once for all its tests; quick settings over a task's small cases; the shipped kernels by prefix.
#pragma once

#include <cstdint>
#include <string>

#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "test_support.h"

namespace kope::test {

struct SuiteShared {
  TempDir dir;
  eval::Evaluator ev{exec::EvalPaths::under(dir.path())};
  Suite suite = Suite::embedded();
};
// The test file's one workspace and the embedded suite.
SuiteShared& suite_shared();

// Quick settings (one call each, one worker) over the cases of `t` that are not marked large and hold at most
// `max_elements` elements, inputs and outputs together: each task's goldens, reference, correct and wrong runs
// stay within seconds. The full-size runs are `kope eval` and bench/suite_table.sh.
EvalOptions quick_suite_options(const Task& t, int64_t max_elements, int case_timeout_seconds = 300);

// The report's errors, and with `cases` each incorrect case's message, one a line.
std::string errors_of(const EvalReport& r, bool cases = false);

// The task's shipped CPU kernel whose file name starts with `prefix`: 01_* is the correct one, 02_* the
// plausible but wrong one. Throws when there is none.
const CandidateSource& shipped_kernel(const std::string& task, const std::string& prefix);

}  // namespace kope::test
