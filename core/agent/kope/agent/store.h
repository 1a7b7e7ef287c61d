// The agent's records in the workspace's kope.db, in tables of its own (schema version in agent_meta,
// migrated idempotently): each LLM attempt with its prompt sections, the items left out, the reply, usage,
// latency, retries and cost; and the per-profile token calibration. Never holds an API key.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

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

// A prompt section as recorded: in the prompt, or ranked but left out (budget or quota), without its text.
struct SectionRecord {
  bool included = true;
  std::string name, tier, source_kind, label;
  int64_t source_id = 0, tokens = 0;
  double rank = 0;
};

// An attempt as recorded: who asked what with which budget, the prompt's sections in order, and the reply when
// one came back.
struct AttemptRecord {
  int64_t id = 0;
  AttemptHeader header;
  nlohmann::json budget;  // as to_json(Budget) wrote it: W, S, G, R, B, hot, warm, cold, Q_w, Q_c
  std::string system_prompt, user_prompt;
  std::string status, reason, created_at, finished_at;  // finished_at empty while running
  std::optional<int64_t> evaluation_id;
  std::vector<SectionRecord> sections;
  std::optional<ExchangeRecord> exchange;
};

class AgentStore {
 public:
  // Opens `workspace_dir`/kope.db (which the Workspace created) and migrates the agent's tables.
  static AgentStore open(const std::filesystem::path& workspace_dir);
  // For a window that only shows transcripts: borrows an open connection to the workspace's kope.db (the caller
  // keeps it open longer than this store) and creates or migrates nothing, so a workspace where no LLM attempt
  // was made has no agent tables yet: every read then answers none.
  static AgentStore reader(sqlite3* db);
  AgentStore(AgentStore&&) noexcept;
  AgentStore& operator=(AgentStore&&) noexcept;
  ~AgentStore();

  int schema_version() const;

  int64_t begin_attempt(const AttemptHeader& h, const Prompt& p);
  void record_exchange(int64_t attempt, const ExchangeRecord& x);
  // status: "requested", "candidate", "no_candidate", "cancelled", "error", then the evaluation's status.
  void set_status(int64_t attempt, const std::string& status, const std::string& reason = "");
  void link_evaluation(int64_t attempt, int64_t evaluation_id, const std::string& status);

  // The whole transcript of an attempt, or nullopt: the record, and the same as JSON.
  std::optional<AttemptRecord> attempt(int64_t id) const;
  std::optional<nlohmann::json> transcript(int64_t attempt) const;
  std::optional<int64_t> attempt_of_evaluation(int64_t evaluation_id) const;
  std::vector<int64_t> attempts_of_run(int64_t run_id) const;

  // The ratio of the server's prompt tokens to kope's estimate for a profile (1.0 until measured).
  double calibration(const std::string& profile) const;
  void add_calibration_sample(const std::string& profile, int64_t estimated, int64_t reported);

 private:
  AgentStore() = default;
  void exec(const char* sql);
  bool has_tables() const;
  void close();
  sqlite3* db_ = nullptr;
  bool owned_ = true;  // false: a reader's borrowed connection
  mutable bool tables_seen_ = false;
  std::string path_;
};

}  // namespace kope::agent
