// The kernel worker: `kope-runner --worker --kernel SO --inputs-fd N --outputs-fd M`. It maps the judge's
// arenas (inputs read-only), confines itself, loads one kernel (the candidate or the baseline, never both) and
// calls it whenever the judge says go. It decides nothing: the judge times, checks and reports.
#pragma once

#include <memory>
#include <string>

#include "kope/exec/sandbox.h"

namespace kope::exec {

// main() of `kope-runner --worker ...`.
int worker_main(int argc, char** argv);

// How workers are started and confined: SANDBOX's sandbox_spawn/confine_current_process once those are built,
// else a local fork/exec with a process group, rlimits and a network namespace where allowed. One line each.
// Every worker is started from one thread that lives as long as the process (with the caller's cores), so a
// worker outlives the thread that asked for it and dies with kope.
std::unique_ptr<SandboxChild> spawn_worker_process(const SandboxSpec& spec);
std::string confine_worker();

}  // namespace kope::exec
