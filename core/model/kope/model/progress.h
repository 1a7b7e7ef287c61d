// What an evaluation reports while it runs, so a window can show its phase live.
#pragma once

#include <string>

namespace kope {

struct CaseResult;

struct EvalProgress {
  enum class Phase { Compiling, Compiled, Testing, Timing, CaseDone, Done };
  Phase phase = Phase::Compiling;
  int case_index = 0;   // 0-based; for Testing and CaseDone
  int case_count = 0;
  std::string case_name;
  const CaseResult* result = nullptr;  // CaseDone: the finished case, valid during the call only
};

}  // namespace kope
