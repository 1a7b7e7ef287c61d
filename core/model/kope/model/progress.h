// What an evaluation reports while it runs, so a window can show its phase live.
#pragma once

#include <string>

namespace kope {

struct CaseResult;

struct EvalProgress {
  // Goldens: the fp64 reference is computing the golden outputs of cases not cached yet (the first evaluation of
  // a task; minutes for a big L4 case): case_index of case_count done, case_name the one under way. Reported
  // from the trusted side's thread while the candidate compiles, not the evaluating thread.
  // Waiting: behind evaluations on this machine's cores that came before it (kope/base/timing_slots.h);
  // Compiling follows when its turn comes.
  enum class Phase { Compiling, Compiled, Waiting, Testing, Timing, CaseDone, Done, Goldens };
  Phase phase = Phase::Compiling;
  int case_index = 0;   // 0-based; for Testing and CaseDone; Goldens: how many are done
  int case_count = 0;
  std::string case_name;
  const CaseResult* result = nullptr;  // CaseDone: the finished case, valid during the call only
};

}  // namespace kope
