// One LLM attempt as a live view follows it: the prompt as soon as it is assembled, the reply as it streams in
// (answer and reasoning apart), tokens in and out, cost and time so far, and how it ended. The hooks are called
// on the policy's own thread (the task's thread when several tasks are in flight); a front end that shows them
// elsewhere copies what it needs and hands it over to its own thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "kope/agent/context.h"

namespace kope::agent {

// Which attempt the calls are about.
struct LiveAttempt {
  int64_t run_id = 0;
  std::string task;
  int iteration = 0;          // the task's attempt number in this session of the policy, from 1
  int64_t transcript_id = 0;  // the attempt's record in the AgentStore (begun before the request)
  std::string profile, model;
  // The profile's prices (currency per million tokens); cost is known when both are.
  std::optional<double> price_in_per_mtok, price_out_per_mtok;
  int64_t prompt_estimate = 0;  // the prompt's calibrated token estimate (system and user)
  bool priced() const { return price_in_per_mtok && price_out_per_mtok; }
};

// Tokens and cost so far. Until the server reports its figures they are kope's estimates: the prompt's
// calibrated estimate, and the streamed text's.
struct LiveUsage {
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  bool from_server = false;
  std::optional<double> cost;  // from the profile's prices; none when it has none
  double elapsed_s = 0;        // since the request was first sent
};

// A piece of the reply. A retry streams the reply again from its start: `restart` says the text shown so far
// is to be dropped before this piece.
struct LiveDelta {
  std::string_view answer, reasoning;
  bool restart = false;
  LiveUsage usage;
};

// How the attempt's exchange ended: "candidate", "no_candidate", "cancelled" or "error" (with the message).
struct LiveEnd {
  std::string status;
  std::string error;
  LiveUsage usage;  // the server's figures when it sent them
};

struct AttemptHooks {
  std::function<void(const LiveAttempt&, const Prompt&)> prompt;  // assembled and recorded, before the request
  std::function<void(const LiveAttempt&, const LiveDelta&)> delta;
  std::function<void(const LiveAttempt&, const LiveEnd&)> end;
};

}  // namespace kope::agent
