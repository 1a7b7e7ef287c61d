// Execute(a): compile, check each case against the fp64 golden, time against the baseline, on the task's device.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kope/base/cancel.h"
#include "kope/base/sized_cache.h"
#include "kope/exec/compiler.h"
#include "kope/exec/paths.h"
#include "kope/model/report.h"
#include "kope/model/task.h"

namespace kope {

namespace device {
class Device;
}

class Evaluator {
 public:
  explicit Evaluator(EvalPaths paths);
  ~Evaluator();

  // A bad task (a reference that does not build or crashes) throws kope::Error; anything wrong with the
  // candidate is an outcome in the report.
  EvalReport evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                      const EvalOptions& options);

  // The trusted side of these tasks (the baseline build, the reference build and its golden runs) made ahead of
  // their evaluations on all cores, while nothing is timed; the local CPU only. Anything that fails is left for
  // the task's evaluation to report.
  void prepare(const std::vector<const Task*>& tasks, const EvalOptions& options);

  const EvalPaths& paths() const { return paths_; }

 private:
  // With `cancel` set these throw (an internal type) when it stops them; evaluate() turns that into a
  // cancelled report.
  std::filesystem::path reference_so(const Task& task, const CancelToken* cancel = nullptr);
  std::filesystem::path baseline_so(const Task& task, const CancelToken* cancel = nullptr);
  // The golden folder of each case, computing every missing one in a single sandboxed reference run.
  std::vector<std::filesystem::path> golden_dirs(const Task& task, const std::vector<ConcreteCase>& cases,
                                                 const EvalOptions& options);

  // The local CPU's baseline (returned) built beside the golden runs of the cases that miss them.
  std::filesystem::path local_trusted_side(const Task& task, const std::vector<ConcreteCase>& cases,
                                           const EvalOptions& options);
  // The fp64 goldens of these cases, from the in-memory cache or read from their folders (then cached).
  using Golden = std::vector<std::vector<double>>;
  std::vector<std::shared_ptr<const Golden>> goldens(const Task& task, const std::vector<ConcreteCase>& cases,
                                                     const EvalOptions& options);
  // The task's library baseline built for the local CPU; a failed build is remembered for this evaluator (as
  // long as the library's include folders are unchanged), so it is not retried on every attempt.
  CompileResult library_build(const Task& task, const LibraryImpl& lib);

  // Each device spec made once per evaluator (a remote one keeps its SSH connection), with its fingerprint.
  struct DeviceEntry;
  DeviceEntry& device_for(const std::string& spec);

  EvalPaths paths_;
  std::map<std::string, std::unique_ptr<DeviceEntry>> devices_;
  // Held across evaluations (the agent's loop evaluates one task over and over), by golden folder.
  SizedCache<Golden> golden_cache_{std::size_t{768} << 20};
  std::mutex library_mutex_;  // the trusted side is prepared on a second thread while the candidate compiles
  std::map<std::string, CompileResult> library_failures_;
};

}  // namespace kope

