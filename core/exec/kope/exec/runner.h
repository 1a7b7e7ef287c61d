// The sandboxed side of an evaluation: kope-runner loads kernels, runs a case and writes what it saw.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "kope/model/task.h"

namespace kope::exec {

struct RunnerJob {
  enum class Mode { Golden, Measure };
  Mode mode = Mode::Measure;
  ConcreteCase kcase;
  std::vector<ConcreteCase> golden_cases;  // golden: when not empty, every one of these in one process, case k's
                                           // outputs in out_dir/<k>/ (kcase is then unused)
  std::filesystem::path kernel;    // golden: the fp64 reference build
  std::filesystem::path baseline;  // measure only
  std::filesystem::path out_dir;
  int warmup = 3;
  int reps = 5;
  int pool = 3;                // input clones rotated through, so no output can be cached by address
  std::size_t flush_bytes = 0; // 0: twice the last-level cache, at least 32 MiB
  bool interleave = true;       // false: every baseline call first, then every candidate call (for bench/)
  bool isolate_network = true;  // a network namespace of its own, where the system allows one
};

// Exit codes of kope-runner besides 0.
enum RunnerExit : int {
  kRunnerKernelError = 3,    // the kernel returned non-zero; result.json says which call
  kRunnerLoadError = 4,      // dlopen or dlsym failed; stderr says why
  kRunnerJobError = 5,       // the job file was unreadable
  kRunnerInputsModified = 6  // the kernel wrote into an input tensor
};

nlohmann::json to_json(const RunnerJob& job);
RunnerJob runner_job_from_json(const nlohmann::json& j);

// Files a job leaves in out_dir. Outputs are raw arrays in their dtype (golden: always double).
std::filesystem::path golden_output_path(const std::filesystem::path& dir, std::size_t output);
std::filesystem::path first_output_path(const std::filesystem::path& dir, std::size_t output);
std::filesystem::path last_output_path(const std::filesystem::path& dir, std::size_t output);
std::filesystem::path result_path(const std::filesystem::path& dir);
std::filesystem::path phase_path(const std::filesystem::path& dir);
// Present only when the runner could not isolate the network; holds the reason.
std::filesystem::path network_failure_path(const std::filesystem::path& dir);

// main() of kope-runner: `kope-runner JOB.json`.
int runner_main(int argc, char** argv);

}  // namespace kope::exec
