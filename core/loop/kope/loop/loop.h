// The optimisation loop: propose, execute, record every attempt, promote only a correct and faster kernel.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/eval/evaluator.h"
#include "kope/loop/policy.h"
#include "kope/model/stats.h"
#include "kope/loop/run_control.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"

namespace kope::loop {

struct LoopOptions {
  std::vector<std::string> tasks;  // empty: every task of the suite
  int max_attempts = 8;            // per task
  // A correct candidate replaces the incumbent only when the LOWER bound of its speedup's 95% interval
  // exceeds the incumbent's speedup by this factor, so timing noise does not churn the incumbent.
  double min_gain = 1.02;
  std::string device = "cpu";
  // Tasks advanced at once (issue 19): model requests, builds and correctness checks side by side, timed calls
  // taking turns per device (kope/base/timing_slots.h). Each task in flight has its own policy, from the
  // PolicyFactory, and its own connection to the workspace, so what one records the next prompt of every other
  // can retrieve.
  int jobs = 1;
  // A pool of hosts (`--device cuda@a,cuda@b`, kope/device/pool.h): each evaluation goes to the one with the
  // fewest in flight; runs are recorded against `device` (the kind). Empty: every evaluation on eval.device.
  std::vector<std::string> device_specs;
  EvalOptions eval;
  std::shared_ptr<RunControl> control;  // pause/stop/steer between attempts; null: unsteered
  // Stop rules beyond max_attempts (0: off). Tokens and wall time count over the whole run, the others per task.
  int64_t max_tokens_total = 0;
  double max_wall_seconds = 0;
  double target_speedup = 0;       // stop a task once its incumbent reaches this speedup
  int patience = 0;                // stop a task after this many attempts in a row without a promotion
  const std::atomic<bool>* cancel = nullptr;  // set (by Ctrl+C, say): stop before the next attempt
  // false: a candidate the memory says already failed on this task and device is skipped (and reported).
  bool recheck = false;
  memory::RetrieveOptions retrieve;
  // The evaluation's phases with the task they belong to (eval.progress has no task; with --jobs N several
  // evaluations report at once). Called on the evaluating thread.
  std::function<void(const std::string& task, const EvalProgress&)> eval_progress;
};

struct Attempt {
  int64_t evaluation_id = 0;
  std::string name;
  std::string thought;
  std::string status;
  std::optional<double> speedup;
  std::optional<double> speedup_low, speedup_high;  // the task-level 95% interval
  // Accuracy reached beside the speedup: the fewest bits and the most ulps over the cases' float outputs.
  std::optional<double> accuracy_bits, accuracy_max_ulps;
  bool promoted = false;
  bool needs_review = false;  // faster than the hardware floor allows: waits for a person (kope review)
  std::string message;
  int64_t transcript_id = 0;  // the policy's record (an LLM transcript), 0 for none
  int64_t tokens = 0;         // model tokens the proposal cost
};

// A candidate the loop did not evaluate because the memory says it already failed here.
struct Skipped {
  std::string name;
  std::string sha256;
  int64_t case_id = 0;
  std::string reason;  // "failed here before (case 12: wrong: ...)"
};

// Whether a report's kernel should replace an incumbent of speedup `incumbent_speedup`.
struct Promotion {
  bool promote = false;
  std::string baseline;  // which baseline `speedup` and `interval` are against (like the incumbent's)
  bool needs_review = false;  // correct, but some case is faster than the hardware floor allows
  std::optional<double> speedup;
  std::optional<SpeedupInterval> interval;
  std::string reason;  // why, in one line
};
// Promote only a correct kernel whose interval's lower bound > incumbent_speedup * min_gain, and never one that
// needs review. `approved`: a person has looked at the floor warning and accepted it. Like with like:
// `incumbent_baseline` "naive" (an incumbent from before the library baseline, or the naive baseline itself)
// compares the report's naive figures; "library" compares its library figures, and a report measured against
// the naive baseline alone is then not comparable (not promoted). Empty: the report's own baseline.
Promotion decide_promotion(const EvalReport& report, double incumbent_speedup, double min_gain,
                           bool approved = false, const std::string& incumbent_baseline = "");

struct TaskOutcome {
  std::string task;
  std::vector<Attempt> attempts;
  std::vector<Skipped> skipped;
  double incumbent_speedup = 1.0;  // 1.0: the baseline is still the incumbent
  std::string incumbent_baseline = "naive";  // which baseline incumbent_speedup is against
  std::string incumbent_name = "baseline";
  std::string error;               // a task that could not be evaluated at all (a bad reference, say)
  bool internal_error = false;     // `error` is kope's own failure, not the task's
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
  bool internal_error = false;  // `error` came from a failure of kope itself (not kope::Error)
  bool infrastructure = false;  // `error`: the cluster lost the measurement (InfraError), not the kernel's doing
};

// Execute and Update for one kernel: the kernel version and a "running" evaluation are recorded before any
// work, the outcome after. Whatever is thrown, the evaluation is closed as "error" first: kope::InfraError (a
// measurement the cluster lost) comes back as Recorded::infrastructure; any other kope::EnvError is rethrown
// (the disk or the database failed: nothing more can be recorded); any other exception becomes Recorded::error
// (internal_error when it was not a kope::Error).
Recorded evaluate_recorded(workspace::Workspace& ws, eval::Evaluator& ev, int64_t run, const Task& task, const KernelSource& kernel,
                           const std::string& device, std::optional<int64_t> prev_evaluation,
                           const EvalOptions& options);

// One kernel in a run of its own, as `kope eval` and the window's Evaluate do; the run ends "done" or "error".
// Throws kope::Error with Recorded::error, after recording it.
Recorded evaluate_in_new_run(workspace::Workspace& ws, eval::Evaluator& ev, const std::string& command, const Task& task,
                             const KernelSource& kernel, const std::string& device, const EvalOptions& options);

// A policy for one thread of tasks, over that thread's connection to the workspace.
using PolicyFactory = std::function<std::unique_ptr<Policy>(workspace::Workspace& ws)>;

// Every attempt is written to the workspace before and after it runs. Outcomes come in the suite's order.
std::vector<TaskOutcome> run_loop(workspace::Workspace& ws, eval::Evaluator& ev, const Suite& suite,
                                  const PolicyFactory& make_policy, const LoopOptions& options, int64_t run_id,
                                  const std::function<void(const LoopEvent&)>& progress = {});
// One policy for every task: options.jobs must be 1.
std::vector<TaskOutcome> run_loop(workspace::Workspace& ws, eval::Evaluator& ev, const Suite& suite, Policy& policy,
                                  const LoopOptions& options, int64_t run_id,
                                  const std::function<void(const LoopEvent&)>& progress = {});

struct LoopRun {
  int64_t run_id = 0;
  std::vector<TaskOutcome> outcomes;
};

// The loop in a run of its own, as `kope run` and the window's Run loop do; the run ends "done" or "error".
LoopRun run_loop_in_new_run(workspace::Workspace& ws, eval::Evaluator& ev, const Suite& suite,
                            const PolicyFactory& make_policy, const LoopOptions& options, const std::string& command,
                            const std::function<void(const LoopEvent&)>& progress = {});
LoopRun run_loop_in_new_run(workspace::Workspace& ws, eval::Evaluator& ev, const Suite& suite, Policy& policy,
                            const LoopOptions& options, const std::string& command,
                            const std::function<void(const LoopEvent&)>& progress = {});

nlohmann::json to_json(const std::vector<TaskOutcome>& outcomes);

}  // namespace kope::loop
