// What several commands of `kope` share beyond their options: the device check of eval and run, and the
// incumbents of a suite as run and report summarise them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kope/device/pool.h"
#include "kope/loop/loop.h"
#include "kope/eval/suite_report.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"

namespace kope::cli {

// --device SPEC (default cpu): a malformed spec or an unknown kind is bad usage (exit 2); a device this
// environment lacks (no toolkit, no board, an unreachable host) is EnvError (exit 4), with why. Returns the spec.
std::string require_device(const std::optional<std::string>& spec);
// A pool from --device (kope/device/pool.h), every device of it available; UsageError for a malformed one.
device::DevicePool require_pool(const std::optional<std::string>& spec);
// The run's devices: timing slots configured, the device runs are recorded against, the hosts of a pool.
void apply_pool(const device::DevicePool& pool, loop::LoopOptions& lo);

// Each named task's incumbent on `device` (its stored report), summarised; a task without one counts as unsolved.
eval::SuiteSummary incumbent_summary(const workspace::Workspace& ws, const Suite& suite, const std::vector<std::string>& names,
                               const std::string& device);

}  // namespace kope::cli
