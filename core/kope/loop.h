// The optimisation loop: propose, execute, record every attempt, promote only a correct and faster kernel.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/evaluator.h"
#include "kope/policy.h"
#include "kope/suite.h"
#include "kope/workspace.h"

namespace kope {

struct LoopOptions {
  std::vector<std::string> tasks;  // empty: every task of the suite
  int max_attempts = 8;            // per task
  // A correct candidate replaces the incumbent only when its speedup exceeds the incumbent's by this factor,
  // so timing noise does not churn the incumbent.
  double min_gain = 1.02;
  std::string device = "cpu";
  EvalOptions eval;
  // Stop rules beyond max_attempts (0: off). Tokens and wall time count over the whole run, the others per task.
  int64_t max_tokens_total = 0;
  double max_wall_seconds = 0;
  double target_speedup = 0;       // stop a task once its incumbent reaches this speedup
  int patience = 0;                // stop a task after this many attempts in a row without a promotion
  const std::atomic<bool>* cancel = nullptr;  // set (by Ctrl+C, say): stop before the next attempt
  // false: a candidate the memory says already failed on this task and device is skipped (and reported).
  bool recheck = false;
  memory::RetrieveOptions retrieve;
};

struct Attempt {
  int64_t evaluation_id = 0;
  std::string name;
  std::string thought;
  std::string status;
  std::optional<double> speedup;
  bool promoted = false;
  std::string message;
  int64_t transcript_id = 0;  // the policy's record (an LLM transcript), 0 for none
};

// A candidate the loop did not evaluate because the memory says it already failed here.
struct Skipped {
  std::string name;
  std::string sha256;
  int64_t case_id = 0;
  std::string reason;  // "failed here before (case 12: wrong: ...)"
};

struct TaskOutcome {
  std::string task;
  std::vector<Attempt> attempts;
  std::vector<Skipped> skipped;
  double incumbent_speedup = 1.0;  // 1.0: the baseline is still the incumbent
  std::string incumbent_name = "baseline";
  std::string error;               // a task that could not be evaluated at all (a bad reference, say)
  std::string stopped;             // which stop rule ended the task early ("" : attempts ran out or the policy did)
};

struct LoopEvent {
  std::string task;
  const Attempt* attempt = nullptr;  // null: the task is starting (or a skip, below)
  const Skipped* skipped = nullptr;  // a candidate skipped on the memory's word
};

struct KernelSource {
  std::string source;
  std::string name;     // what diagnostics call the file
  std::string origin;   // where it came from, as recorded
  std::string thought;  // the idea it tries
};

struct Recorded {
  int64_t kernel_id = 0;
  int64_t evaluation_id = 0;
  EvalReport report;
  std::string error;  // the task could not be evaluated at all (a bad reference, say); recorded as "error"
};

// Execute and Update for one kernel: the kernel version and a "running" evaluation are recorded before any
// work, the outcome after.
Recorded evaluate_recorded(Workspace& ws, Evaluator& ev, int64_t run, const Task& task, const KernelSource& kernel,
                           const std::string& device, std::optional<int64_t> prev_evaluation,
                           const EvalOptions& options);

// One kernel in a run of its own, as `kope eval` and the window's Evaluate do; the run ends "done" or "error".
// Throws kope::Error with Recorded::error, after recording it.
Recorded evaluate_in_new_run(Workspace& ws, Evaluator& ev, const std::string& command, const Task& task,
                             const KernelSource& kernel, const std::string& device, const EvalOptions& options);

// Every attempt is written to the workspace before and after it runs.
std::vector<TaskOutcome> run_loop(Workspace& ws, Evaluator& ev, const Suite& suite, Policy& policy,
                                  const LoopOptions& options, int64_t run_id,
                                  const std::function<void(const LoopEvent&)>& progress = {});

struct LoopRun {
  int64_t run_id = 0;
  std::vector<TaskOutcome> outcomes;
};

// The loop in a run of its own, as `kope run` and the window's Run loop do; the run ends "done" or "error".
LoopRun run_loop_in_new_run(Workspace& ws, Evaluator& ev, const Suite& suite, Policy& policy,
                            const LoopOptions& options, const std::string& command,
                            const std::function<void(const LoopEvent&)>& progress = {});

nlohmann::json to_json(const std::vector<TaskOutcome>& outcomes);

}  // namespace kope
