// The seam between an evaluation and the place its kernel runs, chosen once per device: the local CPU's judge
// (kope's own sandboxed workers under an exact CPU clock) or Device::measure (CUDA, Ascend, remote hosts). The
// evaluation around it (the trusted side, the checks against the golden, statistics, the report) is the same.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kope/device/device.h"
#include "kope/eval/goldens.h"
#include "kope/model/report.h"
#include "kope/model/task.h"

namespace kope::eval {

// What a device's cases are timed against: its naive baseline's build and, where it times one, the library's.
struct TrustedBuilds {
  std::filesystem::path baseline;
  std::optional<BuildResult> library;
  std::string library_why;  // why the device has no library baseline for the task (a warning in the report)
};

// One evaluation's cases on one device.
class CaseSession {
 public:
  virtual ~CaseSession() = default;
  // Case `ci`: its correctness call against `golden` and, when `time_it`, its timed calls (`on_timing` runs once
  // when they start). A candidate's failure is a status in the result, never an exception.
  virtual CaseResult run(std::size_t ci, const Golden& golden, bool time_it, const std::function<void()>& on_timing) = 0;
  // What the report says of the calls as a whole: the time in timed calls, the flush, the isolation, warnings.
  virtual void finish(EvalReport& rep) const = 0;
};

class CaseRunner {
 public:
  virtual ~CaseRunner() = default;
  // Whether the trusted side is made on this machine's cores while the candidate compiles.
  virtual bool prepares_beside_compile() const = 0;
  // The candidate's build time limit on this device.
  virtual double build_timeout_seconds() const = 0;
  // Makes what can be made of a task's trusted side ahead of its evaluations, while nothing is timed.
  virtual void prepare_ahead(TrustedSide& side, const Task& task, const std::vector<ConcreteCase>& cases,
                             const EvalOptions& options) = 0;
  // The builds the task's cases are timed against on this device (the goldens are made here too when the
  // device's baseline is built beside them).
  virtual TrustedBuilds trusted(TrustedSide& side, const Task& task, const std::vector<ConcreteCase>& cases,
                                const EvalOptions& options) = 0;
  // Opens the workers of one evaluation; a library that did not build becomes a warning.
  virtual std::unique_ptr<CaseSession> open(const std::filesystem::path& candidate, const TrustedBuilds& builds,
                                            const std::vector<ConcreteCase>& cases, const EvalOptions& options,
                                            std::vector<std::string>& warnings) = 0;
};

// The one choice per device: the judge for the local CPU ("cpu"), Device::measure for every other device.
std::unique_ptr<CaseRunner> make_case_runner(device::Device& dev, const device::Capabilities& caps,
                                             const exec::EvalPaths& paths);

// The two implementations (judge_case_runner.cpp, device_case_runner.cpp).
std::unique_ptr<CaseRunner> make_judge_case_runner(const exec::EvalPaths& paths);
std::unique_ptr<CaseRunner> make_device_case_runner(device::Device& dev, const device::Capabilities& caps,
                                                    const exec::EvalPaths& paths);

}  // namespace kope::eval
