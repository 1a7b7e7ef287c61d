// The `kope` command line, as a function so tests can drive it in-process.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace kope::cli {

// Exit codes: 0 done (and every evaluated kernel correct); 1 a kernel failed (did not compile, was wrong,
// crashed, timed out); 2 bad usage or bad input (a task file, a kernel path, an option: the message names the
// option and the value); 3 an internal failure; 4 the environment failed (disk, permissions, a locked database,
// a missing tool: kope::EnvError). A run stopped by Ctrl+C exits 130.
enum CliExit : int { kExitOk = 0, kExitKernelFailed = 1, kExitBadInput = 2, kExitInternal = 3, kExitEnvironment = 4 };

// Parses `args` (without the program name) against the command registry (command.h) and runs the command.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace kope::cli
