// The agent's records in the workspace's kope.db, in tables of its own (schema version in agent_meta,
// migrated idempotently): each LLM attempt with its prompt sections, the items left out, the reply, usage,
// latency, retries and cost; and the per-profile token calibration. Never holds an API key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kope/agent/context.h"

struct sqlite3;

namespace kope::agent {

inline constexpr int kAgentSchemaVersion = 1;

struct AttemptHeader {
  int64_t run_id = 0;
  std::string task, device;
  int iteration = 0;
  std::string profile, provider, model, arm;
  nlohmann::json profile_json;  // the profile as used (no secrets)
};

struct ExchangeRecord {
  std::string request_json;  // the body sent (no key: keys travel in headers only)
  std::string answer, reasoning, finish_reason;
  int64_t prompt_tokens = 0, completion_tokens = 0;
  bool usage_from_server = false;
  int64_t estimated_prompt_tokens = 0;
  double latency_s = 0;
  int retries = 0;
  nlohmann::json retry_log = nlohmann::json::array();
  std::optional<double> cost;
  std::string error;
};

class AgentStore {
 public:
  // Opens `workspace_dir`/kope.db (which the Workspace created) and migrates the agent's tables.
  static AgentStore open(const std::filesystem::path& workspace_dir);
  AgentStore(AgentStore&&) noexcept;
  AgentStore& operator=(AgentStore&&) noexcept;
  ~AgentStore();

  int schema_version() const;

  int64_t begin_attempt(const AttemptHeader& h, const Prompt& p);
  void record_exchange(int64_t attempt, const ExchangeRecord& x);
  // status: "requested", "candidate", "no_candidate", "cancelled", "error", then the evaluation's status.
  void set_status(int64_t attempt, const std::string& status, const std::string& reason = "");
  void link_evaluation(int64_t attempt, int64_t evaluation_id, const std::string& status);

  // The whole transcript of an attempt, or nullopt.
  std::optional<nlohmann::json> transcript(int64_t attempt) const;
  std::optional<int64_t> attempt_of_evaluation(int64_t evaluation_id) const;
  std::vector<int64_t> attempts_of_run(int64_t run_id) const;

  // The ratio of the server's prompt tokens to kope's estimate for a profile (1.0 until measured).
  double calibration(const std::string& profile) const;
  void add_calibration_sample(const std::string& profile, int64_t estimated, int64_t reported);

 private:
  AgentStore() = default;
  void exec(const char* sql);
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace kope::agent
