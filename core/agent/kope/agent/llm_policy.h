// Policy(C) by a language model: each propose() runs Retrieve -> Assemble -> the LLM, records the transcript,
// and hands the loop the reply's kernel (or why there was none).
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "kope/agent/context.h"
#include "kope/agent/live.h"
#include "kope/agent/prompts.h"
#include "kope/agent/store.h"
#include "kope/llm/client.h"
#include "kope/loop/policy.h"

namespace kope::agent {

struct LlmPolicyOptions {
  AssembleOptions context;
  const std::atomic<bool>* cancel = nullptr;
  AttemptHooks hooks;  // a live view of each attempt (its prompt, the streamed reply); any may be empty
};

// The hot sections for a state: the spec (tensors, dtypes, shapes per case, attributes), the reference, the
// device's ABI rules, the incumbent, the latest feedback and the target.
std::vector<Section> hot_sections(const loop::PolicyState& s, const PromptTemplates& t, double min_gain);

class LlmPolicy : public loop::Policy {
 public:
  // `source` null: the experience is the loop's Retrieve(s, M) (PolicyState::experience, from the Experience
  // Graph Memory); else what `source` retrieves (the dump arm's every Case, or the workspace's evaluations).
  LlmPolicy(llm::Client client, PromptTemplates templates, AgentStore& store, ExperienceSource* source,
            LlmPolicyOptions options);

  std::string name() const override { return "llm"; }
  std::optional<loop::Proposal> propose(const loop::PolicyState& state) override;
  void recorded(const loop::Proposal& p, int64_t evaluation_id, const std::string& status) override;

  int64_t tokens_used() const { return tokens_; }
  const Prompt* last_prompt() const { return last_prompt_ ? &*last_prompt_ : nullptr; }

 private:
  std::string calibration_key() const;

  llm::Client client_;
  PromptTemplates templates_;
  AgentStore& store_;
  ExperienceSource* source_;
  LlmPolicyOptions options_;
  std::string task_;
  int iteration_ = 0;
  int64_t tokens_ = 0;
  std::optional<Prompt> last_prompt_;
};

}  // namespace kope::agent
