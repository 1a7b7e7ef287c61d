// The judge: the trusted side of an evaluation. It never loads kernel code. Two sandboxed workers (one holds the
// candidate, the other the baseline) serve every case of one evaluation; the judge writes each call's inputs and
// layout into shared memory, starts and times every call on its own clock, and checks every output before the
// next call starts. What a worker says about itself decides nothing.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kope/exec/paths.h"
#include "kope/model/report.h"
#include "kope/exec/sandbox.h"
#include "kope/model/task.h"

namespace kope::exec {

class Judge {
 public:
  // Sizes the arenas for the largest of `cases`, copies each kernel into a job folder of its own under
  // paths.jobs (the only thing its worker sees besides the system). Workers start on first use.
  Judge(const EvalPaths& paths, const std::filesystem::path& candidate_so, const std::filesystem::path& baseline_so,
        const std::vector<ConcreteCase>& cases, const JudgeOptions& options);
  ~Judge();
  Judge(const Judge&) = delete;

  // Adds the task's library implementation (issue 11) as a third worker, in a sandbox of its own: each timed
  // case then gets its correctness call against the golden (CaseResult::library_*) and a timed call in every
  // pair. Call before the first case. Its outputs are never the reference of a candidate's call.
  void add_library(const std::filesystem::path& library_so);
  bool has_library() const { return lib_ != nullptr; }

  Judge& operator=(const Judge&) = delete;

  // A judge's baseline worker outlives it, for the next evaluation of the same baseline build (see judge.cpp).
  // This process keeps up to `n` of them, the most recently used: one per task evaluated at once (default 1).
  static void hold_baselines(std::size_t n);

  // The correctness call against `golden` (one fp64 array per output), then, when `time_it`, warm-ups and timed
  // pairs until the stop rule fires. Every outcome of the candidate is in the result, never thrown.
  // `on_timing` runs once when the case's timed calls start. A set JudgeOptions::cancel ends the case within
  // ~20 ms wherever it is (starting a worker, waiting on a call, between calls): both workers' trees are killed
  // and the result's status is CaseStatus::Cancelled.
  CaseResult run_case(const ConcreteCase& c, const std::vector<std::vector<double>>& golden, bool time_it,
                      const std::function<void()>& on_timing = {});
  bool cancel_requested() const { return options_.cancel && options_.cancel->cancelled(); }

  // The device-style measurement behind CpuDevice::measure (and so cpu@HOST, where kope-remote runs it): no
  // golden here, the caller checks the outputs. The correctness call on `inputs` (raw bytes per input), then
  // `warmup` + `reps` calls on the same inputs (pairs alternating who goes first when `interleave`, else every
  // baseline call first), each timed on the judge's clock, outputs sentinel-filled before every call. A failure
  // is `failure` (status not Passed, as run_case would say it), never thrown.
  struct Calls {
    CaseResult failure;                       // Passed when every call returned 0
    std::vector<std::string> first_outputs;   // the correctness call's outputs, raw bytes per output
    std::vector<std::string> last_outputs;    // the last candidate call's outputs
    std::vector<double> candidate_ns, baseline_ns;
    std::vector<char> order;                  // 'b' or 'c' per timed call, as they ran
  };
  Calls measure_calls(const ConcreteCase& c, const std::vector<std::string>& inputs, int warmup, int reps,
                      bool with_baseline, bool interleave);

  // Sum of the judge's measured times of timed calls (candidate and baseline) so far, in seconds.
  double timed_call_seconds() const { return timed_ns_ * 1e-9; }
  // The copy bandwidth measured once for this evaluation (bytes per ns).
  double copy_bytes_per_ns() const { return bandwidth_; }
  // "lines" (clflushopt over the case's inputs and outputs before each call) or "read" (a read-flush buffer).
  const std::string& flush_method() const { return flush_method_; }
  // What confined the candidate's worker, as the sandbox said ("" before it started).
  std::string isolation_summary() const { return isolation_; }
  const std::vector<std::pair<std::string, std::string>>& isolation_missing() const { return missing_; }

 private:
  struct Arena {
    int fd = -1;
    unsigned char* base = nullptr;
    std::size_t size = 0;
  };
  struct Worker;
  // A baseline worker, its folder and the inputs arena it reads, kept between evaluations (one at a time per kope
  // process) so that evaluations of the same task do not start the trusted baseline again; see judge.cpp.
  struct Held;
  static std::unique_ptr<Held> take_held(const std::string& key, std::size_t in_size, std::size_t out_size);
  static void put_held(std::unique_ptr<Held> h);
  static std::vector<std::unique_ptr<Held>>& held_list();
  static void release_worker(Worker& w);
  enum class CallEnd { Done, Died, TimedOut, Cancelled };
  struct Call {
    CallEnd end = CallEnd::Done;
    int rc = 0;
    int64_t ns = 0;
    // The worker's CPU (its process clock) just before the judge woke it, when it saw its acknowledgement,
    // and when it saw "done"; -1 where there is no clock.
    int64_t cpu_wake = -1, cpu_ack = -1, cpu_done = -1;
    int64_t spin_allowance_ns = 0;  // how long the worker may have spun for go while the judge was preempted
    std::chrono::steady_clock::time_point wake_at{}, done_at{};
  };

  class CaseRun;  // one case's steps (judge_case.cpp)
  void write_layout(const ConcreteCase& c);
  bool ensure_started(Worker& w, CaseResult& r, std::chrono::steady_clock::time_point deadline);
  Call call(Worker& w, std::chrono::steady_clock::time_point deadline);
  void fill_sentinels(Worker& w, const ConcreteCase& c);
  void flush_for(const Worker& w);
  void drain(Worker& w);
  void record_death(Worker& w, const Call& call, const std::string& phase, CaseResult& r);
  int64_t worker_cpu_ns(const Worker& w) const;
  void charge_after_copy(const Worker& w, Call& cl) const;
  void watch_worker(Worker& w, bool is_kernel);
  std::unique_ptr<Worker> make_worker(const char* role, const std::filesystem::path& so,
                                      const std::filesystem::path& dir, const char* file, std::size_t out_size);

  JudgeOptions options_;
  std::filesystem::path runner_;
  std::filesystem::path job_dir_;
  std::filesystem::path base_dir_;  // the baseline's own folder, which outlives the evaluation while held
  std::string held_key_;
  Arena inputs_;
  std::unique_ptr<Worker> cand_, base_;
  std::unique_ptr<Worker> lib_;  // the library baseline, when added
  std::filesystem::path lib_so_;
  std::unique_ptr<Worker> held_lib_;   // a library worker kept with the held baseline, until add_library
  std::filesystem::path held_lib_so_;
  std::size_t max_out_ = 0;      // the largest case's output bytes (sizes each worker's arena)
  std::size_t in_bytes_ = 0, out_bytes_ = 0;  // the current case's data
  std::vector<std::size_t> in_off_, out_off_;
  std::vector<unsigned char> snapshot_;
  std::vector<unsigned char> flush_buf_;
  std::string flush_method_;
  double bandwidth_ = 0.0;
  double timed_ns_ = 0.0;
  uint64_t nonce_ = 0;
  uint64_t case_index_ = 0;
  std::string isolation_;
  std::vector<std::pair<std::string, std::string>> missing_;
};


}  // namespace kope::exec
