#include "kope/agent/make_policy.h"

#include "kope/agent/llm_policy.h"
#include "kope/agent/memory_experience.h"
#include "kope/agent/prompts.h"
#include "kope/agent/store.h"
#include "kope/base/error.h"
#include "kope/memory/memory.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;
using namespace kope::loop;

namespace kope::agent {

// Declared in this order so the policy, which borrows the others, goes first.
struct AgentPolicy::Parts {
  AgentStore store;
  memory::MemoryStore memory;
  MemoryDumpSource dump;
  std::unique_ptr<LlmPolicy> policy;

  explicit Parts(Workspace& ws) : store(AgentStore::open(ws.dir())), memory(ws.handle()), dump(memory) {}
};

namespace {

llm::Profile resolve(const PolicyChoice& c) {
  llm::Profile p = llm::resolve_profile(c.profile, c.overrides, c.settings ? *c.settings : llm::settings_path());
  p.api_key = c.api_key;
  return p;
}

}  // namespace

AgentPolicy::AgentPolicy(const PolicyChoice& choice, Workspace& ws)
    : profile_(resolve(choice)), cancelled_(std::make_unique<std::atomic<bool>>(false)) {
  // The profile, its key and the templates first: a bad one is reported before the agent's tables are made.
  std::string key = llm::api_key_for(profile_);
  PromptTemplates templates = PromptTemplates::load(choice.device, choice.prompts);
  parts_ = std::make_unique<Parts>(ws);
  LlmPolicyOptions po;
  po.context = choice.context;
  po.cancel = cancelled_.get();
  po.hooks = choice.hooks;
  // Active: the loop's Retrieve(s, M) from the Experience Graph Memory; dump: every Case, oldest first.
  ExperienceSource* source = choice.context.arm == MemoryArm::Dump ? &parts_->dump : nullptr;
  parts_->policy = std::make_unique<LlmPolicy>(llm::Client(profile_, std::move(key)), std::move(templates),
                                               parts_->store, source, po);
  if (choice.cancel) {
    cancel_ = choice.cancel;
    cancel_id_ = cancel_->on_cancel([flag = cancelled_.get()] { flag->store(true); });
  }
}

AgentPolicy::~AgentPolicy() {
  if (cancel_) cancel_->remove(cancel_id_);
}

std::string AgentPolicy::name() const { return parts_->policy->name(); }

std::optional<Proposal> AgentPolicy::propose(const PolicyState& state) { return parts_->policy->propose(state); }

void AgentPolicy::recorded(const Proposal& p, int64_t evaluation_id, const std::string& status) {
  parts_->policy->recorded(p, evaluation_id, status);
}

int64_t AgentPolicy::tokens_used() const { return parts_->policy->tokens_used(); }

void check_policy_choice(const PolicyChoice& choice) {
  if (choice.policy == "offline") return;
  if (choice.policy != "llm")
    throw Error("policy \"" + choice.policy + "\" is not available in this build (policies: offline, llm)");
  llm::api_key_for(resolve(choice));
  PromptTemplates::load(choice.device, choice.prompts);
}

std::unique_ptr<Policy> make_policy(const PolicyChoice& choice, Workspace& ws) {
  if (choice.policy == "offline")
    return choice.kernels ? std::make_unique<OfflinePolicy>(*choice.kernels) : std::make_unique<OfflinePolicy>();
  if (choice.policy == "llm") return std::make_unique<AgentPolicy>(choice, ws);
  throw Error("policy \"" + choice.policy + "\" is not available in this build (policies: offline, llm)");
}

}  // namespace kope::agent
