// The judge: the trusted side of an evaluation. It never loads kernel code. Two sandboxed workers (one holds the
// candidate, the other the baseline) serve every case of one evaluation; the judge writes each call's inputs and
// layout into shared memory, starts and times every call on its own clock, and checks every output before the
// next call starts. What a worker says about itself decides nothing.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "kope/evaluator.h"
#include "kope/sandbox.h"
#include "kope/task.h"

namespace kope {

class Judge {
 public:
  // Sizes the arenas for the largest of `cases`, copies each kernel into a job folder of its own under
  // paths.jobs (the only thing its worker sees besides the system). Workers start on first use.
  Judge(const EvalPaths& paths, const std::filesystem::path& candidate_so, const std::filesystem::path& baseline_so,
        const std::vector<ConcreteCase>& cases, const EvalOptions& options);
  ~Judge();
  Judge(const Judge&) = delete;

  // Adds the task's library implementation (issue 11) as a third worker, in a sandbox of its own: each timed
  // case then gets its correctness call against the golden (CaseResult::library_*) and a timed call in every
  // pair. Call before the first case. Its outputs are never the reference of a candidate's call.
  void add_library(const std::filesystem::path& library_so);
  bool has_library() const { return lib_ != nullptr; }

  Judge& operator=(const Judge&) = delete;

  // The correctness call against `golden` (one fp64 array per output), then, when `time_it`, warm-ups and timed
  // pairs until the stop rule fires. Every outcome of the candidate is in the result, never thrown.
  CaseResult run_case(const ConcreteCase& c, const std::vector<std::vector<double>>& golden, bool time_it);

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
  enum class CallEnd { Done, Died, TimedOut };
  struct Call {
    CallEnd end = CallEnd::Done;
    int rc = 0;
    int64_t ns = 0;
  };

  void write_layout(const ConcreteCase& c);
  bool ensure_started(Worker& w, CaseResult& r, std::chrono::steady_clock::time_point deadline);
  Call call(Worker& w, std::chrono::steady_clock::time_point deadline);
  void fill_sentinels(Worker& w, const ConcreteCase& c);
  void flush_for(const Worker& w);
  void drain(Worker& w);
  void record_death(Worker& w, const Call& call, const std::string& phase, CaseResult& r);
  int64_t worker_cpu_ns(const Worker& w) const;
  std::unique_ptr<Worker> make_worker(const char* role, const std::filesystem::path& so, const char* file);

  EvalOptions options_;
  std::filesystem::path runner_;
  std::filesystem::path job_dir_;
  Arena inputs_;
  std::unique_ptr<Worker> cand_, base_;
  std::unique_ptr<Worker> lib_;  // the library baseline, when added
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

// Checks `got` against a trusted output on the same inputs (same dtype): the check_output rules with
// `threshold`; a vectorised pass first, the exact element-by-element pass only when that one is in doubt.
OutputCheck check_against_reference(const std::string& name, DType dtype, const void* got, const void* ref,
                                    std::size_t numel, double threshold);

}  // namespace kope
