// The agent's commands in `kope`: `run --policy llm ...` and `transcript ATTEMPT`.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace kope::agent {

// nullopt when the command is not the agent's.
std::optional<int> agent_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Registers agent_cli with run_cli and initialises libcurl (before any thread starts).
void install_cli();

}  // namespace kope::agent
