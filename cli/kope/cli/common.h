// What several commands of `kope` share beyond their options: the device check of eval and run, and the
// incumbents of a suite as run and report summarise them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kope/eval/suite_report.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"

namespace kope::cli {

// --device SPEC (default cpu): a malformed spec or an unknown kind is bad usage (exit 2); a device this
// environment lacks (no toolkit, no board, an unreachable host) is EnvError (exit 4), with why. Returns the spec.
std::string require_device(const std::optional<std::string>& spec);

// Each named task's incumbent on `device` (its stored report), summarised; a task without one counts as unsolved.
eval::SuiteSummary incumbent_summary(const workspace::Workspace& ws, const Suite& suite, const std::vector<std::string>& names,
                               const std::string& device);

}  // namespace kope::cli
