// The Slurm commands kope uses, and nothing Slurm does itself: a batch job submitted with sbatch, followed with
// scontrol (sacct once the controller has forgotten it), stopped with scancel.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kope/base/cancel.h"
#include "kope/base/process.h"
#include "kope/device/slurm.h"

namespace kope::device {

struct SlurmJob {
  std::string id;
  SlurmJobEnd end;
  bool cancelled = false;  // stopped by kope (scancel), whatever state it ended in
  std::string node;        // where it ran, when Slurm said
};

class SlurmCluster {
 public:
  SlurmCluster(SlurmOptions options, std::vector<std::string> env) : options_(std::move(options)), env_(std::move(env)) {}

  // "" when sbatch, scontrol and scancel are all here; else what is missing and how to get it.
  std::string missing_tools() const;
  // sbatch --test-only with the options: "" when the cluster would take such a job, else sbatch's own words.
  std::string refused(const std::string& job_name) const;
  // Submits `script` (run in `dir`, its output in dir/job.out and dir/job.err) and waits until the job ends:
  // its final state, or CANCELLED with `cancelled` set once `cancel` fired and scancel took it out of the queue.
  // Throws kope::Error when sbatch refuses the job or Slurm cannot say how it ended.
  SlurmJob run(const std::filesystem::path& script, const std::filesystem::path& dir, const std::string& job_name,
               double limit_seconds, const CancelToken* cancel) const;

  const SlurmOptions& options() const { return options_; }

 private:
  std::vector<std::string> sbatch_argv(const std::filesystem::path& dir, const std::string& job_name,
                                       double limit_seconds) const;
  ProcessResult command(const std::vector<std::string>& argv, double timeout = 60) const;
  // The job's state now: from scontrol while the controller holds it, else from sacct; "" when neither knows.
  std::string state_of(const std::string& id, SlurmJobEnd& end, std::string& node, std::string& why) const;
  void wait_final(SlurmJob& job, const CancelToken* cancel) const;

  SlurmOptions options_;
  std::vector<std::string> env_;
};

}  // namespace kope::device
