// What an evaluation is asked (EvalOptions) and what it found (CaseResult, EvalReport): the value types every
// part of kope speaks, below the services that produce and consume them.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/cancel.h"
#include "kope/model/build_types.h"
#include "kope/model/check.h"
#include "kope/model/progress.h"

namespace kope {

// What the judge (exec/judge.h) needs to run and time one case: the CPU device hands these straight down.
struct JudgeOptions {
  int warmup = 1;                     // untimed pairs after the correctness call (which is the kernel's first warm call)
  int reps = 5;                       // timed pairs at least
  int max_reps = 40;                  // timed pairs at most (repetitions adapt between reps and this)
  double ci_rel_width = 0.10;         // stop adding pairs once the 95% interval is this narrow, relative to the speedup
  double case_budget_seconds = 0.4;   // or once a case's timing has taken this long (past the first reps pairs)
  double case_timeout_seconds = 60.0;
  uint64_t memory_bytes = uint64_t{4} << 30;
  std::string flush = "auto";         // "lines": clflushopt the case's data before each call; "read": read a buffer
  std::size_t flush_bytes = 0;        // "read" only; 0: twice the largest cache (sysfs), 32 MiB to 256 MiB
  double spin_us = 50;                // the judge spins this long on a call, then sleeps on the futex
  bool interleave = true;             // baseline and candidate alternate call by call
  std::shared_ptr<CancelToken> cancel;  // stop now: the case (and the evaluation) ends as cancelled
};

// An evaluation's options: the judge's, and what the evaluator decides around it (cases, flags, device, library).
struct EvalOptions : JudgeOptions {
  int pool = 3;                       // unused since every call gets fresh inputs; kept for the settings JSON
  std::vector<std::string> cases;     // empty: all
  bool skip_large = false;            // leave out the cases the task marks "large" (unless named in `cases`)
  std::vector<std::string> cxxflags;  // replace the default -O2 for the candidate
  std::vector<std::string> prelude;   // the candidate's leading #include lines to precompile (a library's; cpu)
  // Where the kernel runs: "cpu" (the judge's sandboxed workers), "cuda", "ascend", or KIND@[USER@]HOST[:PORT]
  // (kope/device/device.h). Goldens, checks, statistics and records stay here whatever the device.
  std::string device = "cpu";
  bool sanitize = false;              // devices with a memory checker run the correctness call under it
  // Time the task's library implementation for the device (issue 11) as a third worker, and report speedup and
  // HAP against it (the naive baseline stays as speedup_vs_naive). No effect where the task names none.
  bool library = true;
  std::function<void(const EvalProgress&)> progress;  // phases as they happen, on the evaluating thread
};

// Cancelled: the evaluation was stopped while this case ran (the judge's answer; such a case is not kept in
// the report, whose `cancelled` says it).
enum class CaseStatus { Passed, Wrong, Crash, Timeout, RuntimeError, LoadError, InputsModified, Background, Cancelled };
std::string_view case_status_name(CaseStatus s);

struct CaseResult {
  std::string name;
  CaseStatus status = CaseStatus::Passed;
  std::string message;
  std::vector<OutputCheck> outputs;       // the correctness call
  std::vector<OutputCheck> last_outputs;  // the last timed call
  // The naive baseline's own outputs on the seeded inputs against the golden (issue 16): how closely it stands
  // in for the golden on the timed calls. Empty when the case was not timed by the judge's own workers.
  std::vector<OutputCheck> baseline_outputs;
  // Per output, the worst over every warm-up and timed call against the baseline's output on the same inputs:
  // the largest errors and ulps, the fewest bits; `threshold` is the limit those calls were held to.
  std::vector<OutputCheck> timed_worst;
  std::vector<double> baseline_ns, kernel_ns;
  std::optional<double> baseline_median_ns, kernel_median_ns, speedup;
  // A 95% bootstrap interval of the speedup: how far the machine's noise leaves the ratio uncertain.
  std::optional<std::pair<double, double>> speedup_interval;
  // The memory-bound floor: bytes the case must move / the copy bandwidth measured in the same process.
  std::optional<double> hw_bound_ns;
  // CANN Bench's hardware-aware position: 0.5 at baseline speed, 1 at the floor; clamped to [0, 1].
  std::optional<double> hap;
  std::string log;  // what the runner printed, truncated
  bool network_isolated = false;
  std::string network_failure;  // why the runner could not isolate the network, as it said
  // Why timing stopped: "converged" (the interval is narrow enough), "budget" (the case's time budget is spent),
  // "max_reps", "fixed" (sequential timing); empty when the case was not timed.
  std::string stop_rule;
  bool timed = false;       // false: an earlier case had failed, or this one failed before timing ended
  std::string failed_call;  // the call that failed: "correctness run", "warm-up 2", "timed run 3"
  // What a verdict of cheating rests on (work outside the calls, outputs changed after return, a written
  // input): the figures measured, the allowance, the phase, and the re-run in a fresh worker that confirmed it
  // ("rerun"). A flag that a re-run did not confirm stays here with "confirmed": false on a passing case.
  nlohmann::json evidence;
  bool correct() const { return status == CaseStatus::Passed; }

  // The library baseline (issue 11), when the task has one for the device and EvalOptions::library is set.
  // `baseline` says which baseline speedup, speedup_interval, hap and baseline_median_ns are against:
  // "library" when the library was timed on this case, else "naive". baseline_ns stays the naive baseline's
  // calls (the per-call reference of the candidate's outputs).
  std::string baseline = "naive";
  bool library_ran = false;                  // its correctness call ran
  std::optional<bool> library_correct;       // its output against the fp64 golden, within the task's threshold
  std::vector<OutputCheck> library_outputs;  // that check, per output (shown, not hidden)
  std::string library_message;               // why it failed (wrong, crashed, did not load), or empty
  std::vector<double> library_ns;            // its timed calls
  std::optional<double> library_median_ns, naive_median_ns, speedup_vs_naive, hap_vs_naive;
};

// What one evaluation cannot see of its own noise: how far a whole evaluation's timing moves from one evaluation to
// the next. The same baseline, timed in every evaluation of a task, measures it: `sd_log` is the pooled standard
// deviation, over evaluations, of the baseline's log geometric mean over the task's cases, from `evaluations`
// evaluations of `tasks` tasks (with `dof` degrees of freedom) in this workspace on this device.
struct BetweenEvaluations {
  double sd_log = 0.0;
  int dof = 0;
  int evaluations = 0;
  int tasks = 0;
};
struct EvalReport {
  std::string task;
  std::string task_digest;
  std::string kernel_name;
  std::string kernel_sha256;
  std::string device = "cpu";
  nlohmann::json device_fingerprint;  // what the numbers were measured on (device::to_json(Fingerprint))
  bool compiled = false;
  // Stopped through EvalOptions::cancel: `cases` holds only the cases that finished before; status() is
  // "cancelled"; nothing about the kernel follows from it (JSON: "cancelled": true).
  bool cancelled = false;
  BuildResult compile;
  std::vector<CaseResult> cases;
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  EvalOptions options;
  double wall_seconds = 0.0;          // the whole evaluation, compile included
  double timed_call_seconds = 0.0;    // inside timed kernel calls (candidate and baseline), as the judge measured
  std::string flush_method;           // "lines" or "read"
  std::string worker_isolation;       // what confined the candidate's worker
  // The workspace's between-evaluation spread on this device when the evaluation was recorded (kope/model/stats.h
  // widens the task interval by it); absent outside a workspace or before it has repeated measurements.
  std::optional<BetweenEvaluations> between;

  bool correct() const;
  std::string status() const;           // cancelled, passed, compile_error, or the first failing case's status
  std::optional<double> speedup() const;  // geometric mean over cases, when correct
  // Accuracy reached (issue 16): the fewest bits (OutputCheck::bits) and the most ulps over every case's floating
  // outputs on the correctness call, and over their timed calls; nullopt where no case has one.
  std::optional<double> accuracy_bits() const;
  std::optional<double> accuracy_max_ulps() const;
  std::optional<double> timed_accuracy_bits() const;
  std::optional<double> timed_accuracy_max_ulps() const;
  // The same against the naive baseline (the second column), when correct.
  std::optional<double> speedup_vs_naive() const;
  // "library" when every timed case was timed against the library, "naive" when none was, else "mixed".
  std::string baseline() const;
  // Whether the library baseline met the golden on every case it ran (null when it ran on none).
  std::optional<bool> library_correct() const;
  // 100 * [0.2 * compiled + sum over cases of correct_i * (0.3 + 0.5 * HAP_i) / cases]
  double score() const;
  nlohmann::json to_json() const;
};

double median(std::vector<double> v);

// The 2.5th and 97.5th percentiles of median(base)/median(kernel) over resamples of both series
// (deterministic: a fixed seed). Empty input gives {0, 0}.
std::pair<double, double> speedup_interval(const std::vector<double>& base_ns, const std::vector<double>& kernel_ns,
                                           int resamples = 2000);

// HAP = (T_base - T_hw) / ((T_cand - T_hw) + (T_base - T_hw)), clamped to [0, 1].
double hardware_aware_position(double base_ns, double cand_ns, double hw_ns);

// The inverse of EvalReport::to_json: to_json(report_from_json(j)) == j for every j it wrote. Keys it does not
// know are ignored, so reports with newer fields still load; a missing key keeps its default. Throws kope::Error
// when `j` is not an object or a known key has the wrong type.
EvalReport report_from_json(const nlohmann::json& j);

// "passed", "wrong", ...; nullopt for a name this build does not know.
std::optional<CaseStatus> case_status_from_name(std::string_view name);

}  // namespace kope
