// `kope doctor --device ascend|cuda|cpu|KIND@HOST`: the first thing to run on a new board. A tiny shipped kernel
// is built with every build route of the device, run on one small case against the fp64 golden, timed against the
// device's baseline and profiled, through the same device and evaluator code as `kope eval`; each step says what
// works, what does not (the tool's own error) and what to do.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/device/device.h"
#include "kope/exec/paths.h"
#include "kope/model/task.h"

namespace kope::doctor {

// works: the step ran and did what it should; fails: it ran and did not (the tool's error in `found`);
// not available: it could not run here (`found` says why); info: a fact (the fingerprint).
enum class StepState { Works, Fails, NotAvailable, Info };
std::string_view step_state_name(StepState s);  // "works", "fails", "not available", "info"
std::optional<StepState> step_state_from_name(std::string_view name);

struct DeviceStep {
  std::string step;   // "availability", "fingerprint", "build", "run", "time", "profile"
  std::string route;  // the build route ("direct", "msopgen", "cpu-twin", "shared-object"); empty: the device's
  StepState state = StepState::Info;
  std::string found;  // what happened, the tool's error when it failed (may span lines)
  std::string todo;   // what to do about it; empty when nothing
};

struct DeviceCheckReport {
  std::string device;   // the spec as given ("ascend", "cuda@gpu-box")
  std::string name;     // the device's own name; empty when it could not be made
  std::string kind;     // cpu, cuda, ascend
  std::string task;     // the task the tiny kernel solves
  std::string kernel;   // the shipped kernel's name ("exp/01_pipelined_tiles.cpp")
  std::string case_name;  // the case it ran on
  bool available = false;
  nlohmann::json fingerprint;   // device::to_json(Fingerprint), null when unavailable
  nlohmann::json capabilities;  // device::to_json(Capabilities), null when unavailable
  std::vector<DeviceStep> steps;
  bool can_build() const;  // some build route works: the exit status is 0 only then
  std::vector<const DeviceStep*> in_state(StepState s) const;
};

struct DeviceCheckOptions {
  std::string device = "cpu";
  exec::EvalPaths paths;           // builds, goldens and jobs (the workspace's, as `kope eval` uses)
  std::vector<std::string> env;    // NAME=value overrides for the device's tool look-up (tests: the fake CANN)
  std::string task = "exp";        // a task of the embedded suite whose shipped kernels for the kind are used
  // Tests: a task and a kernel of their own instead (kernel_source empty: the shipped kernel of `task`).
  std::optional<Task> task_override;
  std::string kernel_source, kernel_name;
  double timeout_seconds = 300;    // per build
};

// Runs every step; a device spec that is malformed or names no kind throws kope::Error (bad input), everything the
// machine lacks is a step's state.
DeviceCheckReport check_device(const DeviceCheckOptions& options);

nlohmann::json to_json(const DeviceCheckReport& r);

}  // namespace kope::doctor
