// `kope run`: what it was asked, whichever the policy. cmd_run.cpp parses it and runs the offline policy;
// cmd_agent.cpp adds the LLM agent's options and runs `kope run --policy llm`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kope/agent/make_policy.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/loop/loop.h"

namespace kope::cli {

struct RunRequest {
  agent::PolicyChoice policy;  // --policy, --kernels, and the LLM agent's profile, context and prompts
  std::optional<std::string> device;
  SuiteChoice suite;
  loop::LoopOptions loop;            // --tasks, --max-attempts, the stop rules, and eval's options in loop.eval
  bool json = false;
};

// The options only `--policy llm` reads (profile, model, context, prompts), in a help group of their own;
// returns their names so `run` can refuse them with the offline policy.
std::vector<std::string> add_llm_options(CLI::App& app, agent::PolicyChoice& choice);

// `kope run --policy llm`: the loop with the LLM agent; exit 130 when Ctrl+C ended it.
int run_llm(const RunRequest& request, const Invocation& inv);

}  // namespace kope::cli
