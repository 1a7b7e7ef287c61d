// The `kope` command line, as a function so tests can drive it in-process.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kope {

// `kope compare A B [--json]` (cli_compare.cpp); positional = {"compare", A, B}.
int cmd_compare(const std::vector<std::string>& positional, bool json, const std::filesystem::path& workspace,
                std::ostream& out);

// Exit codes: 0 done (and every evaluated kernel correct); 1 a kernel failed (did not compile, was wrong,
// crashed, timed out); 2 bad usage or bad input (a task file, a kernel path); 3 an internal failure; 4 the
// environment failed (disk, permissions, a locked database, a missing tool: kope::EnvError).
enum CliExit : int { kExitOk = 0, kExitKernelFailed = 1, kExitBadInput = 2, kExitInternal = 3, kExitEnvironment = 4 };

// Commands handled outside kope_core (the agent's `run --policy llm`, `transcript`): nullopt when not theirs.
using CliExtension = std::optional<int> (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
void set_cli_extension(CliExtension ext);

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);


}  // namespace kope
