// The trusted side of an evaluation, made on kope's own machine whatever the device: the fp64 reference and its
// golden runs (sandboxed), the naive baseline, the library baseline's build; goldens held in memory across
// evaluations (the agent's loop evaluates one task over and over).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kope/base/cancel.h"
#include "kope/base/error.h"
#include "kope/base/sized_cache.h"
#include "kope/exec/paths.h"
#include "kope/model/build_types.h"
#include "kope/model/report.h"
#include "kope/model/task.h"

namespace kope::eval {

// A case's fp64 golden outputs, one array per output.
using Golden = std::vector<std::vector<double>>;

// The evaluation was stopped through its cancel token (in a build or a golden run); evaluate() catches it.
struct EvalCancelled : Error {
  EvalCancelled() : Error("cancelled") {}
};
void throw_if_cancelled(const CancelToken* cancel);

// The last n bytes of s ("..." before them when cut), without trailing blanks: a tool's output in a message.
std::string tail_trimmed(const std::string& s, std::size_t n);

// A scratch folder under `jobs`, removed with its contents when the scope ends.
struct JobDir {
  std::filesystem::path path;
  explicit JobDir(const std::filesystem::path& jobs);
  ~JobDir();
  JobDir(const JobDir&) = delete;
  JobDir& operator=(const JobDir&) = delete;
};

class TrustedSide {
 public:
  explicit TrustedSide(exec::EvalPaths paths) : paths_(std::move(paths)) {}

  // With `cancel` set these throw EvalCancelled when it stops them.
  std::filesystem::path reference_so(const Task& task, const CancelToken* cancel = nullptr);
  std::filesystem::path baseline_so(const Task& task, const CancelToken* cancel = nullptr);
  // The golden folder of each case, computing every missing one in sandboxed reference runs.
  std::vector<std::filesystem::path> golden_dirs(const Task& task, const std::vector<ConcreteCase>& cases,
                                                 const EvalOptions& options);
  // The local CPU's naive baseline (returned) built beside the golden runs of the cases that miss them.
  std::filesystem::path baseline_beside_goldens(const Task& task, const std::vector<ConcreteCase>& cases,
                                                const EvalOptions& options);
  // The fp64 goldens of these cases, from the in-memory cache or read from their folders (then cached).
  std::vector<std::shared_ptr<const Golden>> goldens(const Task& task, const std::vector<ConcreteCase>& cases,
                                                     const EvalOptions& options);
  // The task's library baseline built for the local CPU; a failed build is remembered (as long as the library's
  // include folders are unchanged), so it is not retried on every attempt.
  BuildResult library_build(const Task& task, const LibraryImpl& lib);

  const exec::EvalPaths& paths() const { return paths_; }

 private:
  exec::EvalPaths paths_;
  SizedCache<Golden> golden_cache_{std::size_t{768} << 20};
  std::mutex library_mutex_;  // the trusted side is prepared on a second thread while the candidate compiles
  std::map<std::string, BuildResult> library_failures_;
};

}  // namespace kope::eval
