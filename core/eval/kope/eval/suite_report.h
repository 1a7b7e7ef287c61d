// What a suite run reports (issue 11, item 4): per task the geometric-mean speedup over all cases and, apart,
// over the memory-bound cases; per suite CANN Bench's score, the pass rate and fast_1.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/model/report.h"
#include "kope/model/task.h"

namespace kope::eval {

// Traffic above which an unmarked case counts as memory-bound when its task marks none: 32 MiB, the last-level
// cache of the machines this was measured on; after the evaluator's cache flush such a case streams from DRAM.
inline constexpr double kMemoryBoundBytes = 32.0 * 1024 * 1024;

// Whether a case of `task` counts as memory-bound: the case's "memory_bound" flag, or, when the task marks no
// case, its traffic (inputs plus outputs) reaching kMemoryBoundBytes.
bool case_is_memory_bound(const Task& task, const std::string& case_name);

struct CaseRecord {
  std::string name;
  bool correct = false;
  bool memory_bound = false;
  std::optional<double> speedup;  // against the baseline the report was measured with
  std::optional<double> hap;
};

struct TaskRecord {
  std::string task;
  int level = 0;
  std::string kernel;  // which kernel these numbers are for
  bool evaluated = false;  // false: nothing recorded for the task
  bool compiled = false;
  std::vector<CaseRecord> cases;
  // The kernel's speedup over the library baseline (geometric mean over cases), once the evaluator measures
  // one; absent until then, and fast_1 is then computed against the naive baseline instead (said in the output).
  std::optional<double> library_speedup;
};

// Marks each case from the task (the case's "memory_bound" flag; when the task marks none, cases moving at
// least kMemoryBoundBytes).
TaskRecord task_record(const Task& task, const EvalReport& report);
// The same from a stored report (EvalReport::to_json()).
TaskRecord task_record(const Task& task, const nlohmann::json& report);

struct TaskSummary {
  std::string task;
  int level = 0;
  std::string kernel;
  bool evaluated = false, compiled = false, correct = false;
  int cases = 0, cases_correct = 0, memory_bound_cases = 0;
  std::optional<double> speedup;               // geometric mean over all cases, when every case is correct
  std::optional<double> memory_bound_speedup;  // geometric mean over the memory-bound cases, when they are correct
  std::optional<double> library_speedup;
  double score = 0.0;  // CANN Bench: 100 * [0.2 * compiled + sum_i correct_i * (0.3 + 0.5 * HAP_i) / cases]
  bool fast = false;   // correct and faster than the reference point (library when known, else naive)
};

struct SuiteSummary {
  std::vector<TaskSummary> tasks;
  double score = 0.0;  // sum of the operator scores, as CANN Bench totals them
  int tasks_correct = 0;
  int cases = 0, cases_correct = 0;
  double pass_rate = 0.0;  // correct cases / cases
  // fast_1: the fraction of tasks that are correct and faster than the library baseline (speedup > 1). Where
  // a task has no library measurement its naive-baseline speedup stands in; fast_1_against says which.
  double fast_1 = 0.0;
  std::string fast_1_against;  // "library", "naive", or "library where measured, else naive"
};

TaskSummary summarize_task(const TaskRecord& r);
SuiteSummary summarize_suite(const std::vector<TaskRecord>& records);

nlohmann::json to_json(const SuiteSummary& s);
void print_suite_summary(const SuiteSummary& s, std::ostream& out);

}  // namespace kope::eval
