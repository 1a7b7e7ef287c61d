// The one assembly of a run's policy, for the command line (`kope run --policy ...`) and the window's run
// controller: the offline policy, or the LLM agent from a profile of the settings file with the prompt templates
// of the device, the transcript store and the experience source of the memory arm.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "kope/agent/context.h"
#include "kope/agent/live.h"
#include "kope/base/cancel.h"
#include "kope/llm/client.h"
#include "kope/llm/config.h"
#include "kope/loop/policy.h"

namespace kope::workspace {
class Workspace;
}

namespace kope::agent {

// What a front end chose. The fields under "llm" are read only for the LLM policy.
struct PolicyChoice {
  std::string policy = "offline";                // "offline" or "llm"
  std::optional<std::filesystem::path> kernels;  // offline: DIR/<task>/*.cpp instead of the shipped kernels
  // llm: the named profile of the settings file (nullopt: the file's "default"), with flags over it.
  std::optional<std::string> profile;
  llm::ProfileOverrides overrides;
  std::optional<std::filesystem::path> settings;  // nullopt: llm::settings_path()
  // The key a front end read for the profile (the window: from the system keychain); else the profile's variable.
  std::optional<llm::ApiKey> api_key;
  std::string device = "cpu";                     // whose prompt templates the agent is given
  std::optional<std::filesystem::path> prompts;   // templates overriding the embedded ones (DIR/<device>/...)
  AssembleOptions context;                        // the memory arm, the warm and cold quotas, the reserve R
  std::shared_ptr<CancelToken> cancel;            // once cancelled, the model's request in flight is abandoned
  AttemptHooks hooks;                             // a live view of each attempt; called on the policy's thread
};

// The LLM agent together with what it borrows (the transcript store, the memory the dump arm reads, the hook on
// the cancel token), so a front end holds one object for the whole run.
class AgentPolicy final : public loop::Policy {
 public:
  // Throws kope::Error for a bad settings file or profile, a missing key (naming its variable) or a device
  // without prompt templates; EnvError when the workspace's database cannot be opened.
  AgentPolicy(const PolicyChoice& choice, workspace::Workspace& ws);
  ~AgentPolicy() override;
  AgentPolicy(const AgentPolicy&) = delete;
  AgentPolicy& operator=(const AgentPolicy&) = delete;

  std::string name() const override;
  std::optional<loop::Proposal> propose(const loop::PolicyState& state) override;
  void recorded(const loop::Proposal& p, int64_t evaluation_id, const std::string& status) override;

  const llm::Profile& profile() const { return profile_; }
  int64_t tokens_used() const;

 private:
  struct Parts;
  llm::Profile profile_;
  std::unique_ptr<std::atomic<bool>> cancelled_;
  std::shared_ptr<CancelToken> cancel_;
  int cancel_id_ = -1;
  std::unique_ptr<Parts> parts_;
};

// What make_policy would refuse (an unknown policy, a bad settings file or profile, a missing key, a device
// without prompt templates), checked before anything is created: a front end calls it before it opens the
// workspace, so bad usage leaves nothing behind.
void check_policy_choice(const PolicyChoice& choice);

// "offline": the shipped kernels (or choice.kernels); "llm": an AgentPolicy. Another name throws kope::Error
// naming the policies there are.
std::unique_ptr<loop::Policy> make_policy(const PolicyChoice& choice, workspace::Workspace& ws);

}  // namespace kope::agent
