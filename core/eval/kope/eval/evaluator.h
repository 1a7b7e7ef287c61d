// Execute(a): compile, check each case against the fp64 golden, time against the baseline, on the task's device.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kope/eval/goldens.h"
#include "kope/exec/paths.h"
#include "kope/model/report.h"
#include "kope/model/task.h"

namespace kope::device {
class Device;
}

namespace kope::eval {

// Thread-safe: `kope run --jobs N` evaluates several tasks at once through one evaluator (their timed calls
// take turns through kope/base/timing_slots.h).
class Evaluator {
 public:
  explicit Evaluator(exec::EvalPaths paths);
  ~Evaluator();

  // A bad task (a reference that does not build or crashes) throws kope::Error; anything wrong with the
  // candidate is an outcome in the report.
  EvalReport evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                      const EvalOptions& options);

  // The candidate's build alone, as evaluate() would make it (same device, flags and build folder, so an
  // evaluation that follows finds it cached): a report with `compile`, `compiled` and, when it did not compile,
  // the errors; no case is run. Nothing is recorded anywhere: the caller decides (the window's Compile, and its
  // hand-made kernels that do not build, which are not attempts).
  EvalReport compile(const Task& task, const std::string& source, const std::string& kernel_name,
                     const EvalOptions& options);

  // The trusted side of these tasks (the baseline build, the reference build and its golden runs) made ahead of
  // their evaluations on all cores, while nothing is timed; the local CPU only. Anything that fails is left for
  // the task's evaluation to report.
  void prepare(const std::vector<const Task*>& tasks, const EvalOptions& options);

  const exec::EvalPaths& paths() const { return paths_; }

  // Up to `tasks` tasks are evaluated at once from now on: each keeps its baseline's worker running between its
  // evaluations (kope/exec/judge.h), instead of taking turns at one. With more than one, where this machine's
  // cores are one unpinned timing slot, an evaluation's compile and trusted side run before its turn, beside the
  // other evaluations' timing, at idle priority (see evaluate()).
  static void evaluating_at_once(std::size_t tasks);

  // Evaluations whose EvalOptions::device is `spec` run on `dev`, a device the caller made (its own tools, a build
  // route of its choice: `kope doctor --device` builds with each route in turn); replaces what `spec` named before.
  void use_device(const std::string& spec, std::unique_ptr<device::Device> dev);

 private:
  // Each device spec made once per evaluator (a remote one keeps its SSH connection), with its fingerprint.
  struct DeviceEntry;
  DeviceEntry& device_for(const std::string& spec);
  DeviceEntry& add_device(const std::string& spec, std::unique_ptr<device::Device> dev);

  exec::EvalPaths paths_;
  TrustedSide side_;  // goldens and builds held across evaluations
  std::mutex devices_mutex_;
  std::map<std::string, std::unique_ptr<DeviceEntry>> devices_;
};

}  // namespace kope::eval

