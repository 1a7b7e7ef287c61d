#include "kope/agent/store.h"

#include <sqlite3.h>

#include "kope/base/error.h"

namespace kope::agent {

using nlohmann::json;

namespace {

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

// Version i -> i + 1. Every statement is idempotent, so a half-applied step cannot wedge the database.
const char* const kAgentMigrations[] = {
    R"sql(
CREATE TABLE IF NOT EXISTS agent_attempts(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL,
  task TEXT NOT NULL,
  device TEXT NOT NULL,
  iteration INTEGER NOT NULL,
  profile TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  memory_arm TEXT NOT NULL,
  profile_json TEXT NOT NULL,
  budget_json TEXT NOT NULL,
  system_prompt TEXT NOT NULL,
  user_prompt TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'requested',
  reason TEXT NOT NULL DEFAULT '',
  evaluation_id INTEGER,
  created_at TEXT NOT NULL,
  finished_at TEXT);
CREATE INDEX IF NOT EXISTS agent_attempts_by_run ON agent_attempts(run_id, id);
CREATE INDEX IF NOT EXISTS agent_attempts_by_eval ON agent_attempts(evaluation_id);
CREATE TABLE IF NOT EXISTS agent_sections(
  attempt_id INTEGER NOT NULL REFERENCES agent_attempts(id),
  ord INTEGER NOT NULL,
  included INTEGER NOT NULL,
  name TEXT NOT NULL,
  tier TEXT NOT NULL,
  source_kind TEXT NOT NULL,
  source_id INTEGER NOT NULL,
  label TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  rank REAL NOT NULL,
  PRIMARY KEY(attempt_id, ord));
CREATE TABLE IF NOT EXISTS agent_exchanges(
  attempt_id INTEGER PRIMARY KEY REFERENCES agent_attempts(id),
  request_json TEXT NOT NULL,
  answer TEXT NOT NULL,
  reasoning TEXT NOT NULL,
  finish_reason TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  usage_from_server INTEGER NOT NULL,
  estimated_prompt_tokens INTEGER NOT NULL,
  latency_s REAL NOT NULL,
  retries INTEGER NOT NULL,
  retry_log TEXT NOT NULL,
  cost REAL,
  error TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agent_calibration(
  profile TEXT PRIMARY KEY,
  ratio REAL NOT NULL,
  samples INTEGER NOT NULL,
  updated_at TEXT NOT NULL);
)sql",
};

class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK)
      throw Error(std::string("agent records: cannot prepare statement: ") + sqlite3_errmsg(db));
  }
  ~Stmt() { sqlite3_finalize(st_); }
  Stmt& bind(int i, int64_t v) { return check(sqlite3_bind_int64(st_, i, v)); }
  Stmt& bind(int i, double v) { return check(sqlite3_bind_double(st_, i, v)); }
  Stmt& bind(int i, const std::string& v) { return check(sqlite3_bind_text(st_, i, v.c_str(), -1, SQLITE_TRANSIENT)); }
  Stmt& bind(int i, std::optional<double> v) { return check(v ? sqlite3_bind_double(st_, i, *v) : sqlite3_bind_null(st_, i)); }
  bool step() {
    int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw Error(std::string("agent records: ") + sqlite3_errmsg(db_));
  }
  int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
  double f64(int c) const { return sqlite3_column_double(st_, c); }
  bool null(int c) const { return sqlite3_column_type(st_, c) == SQLITE_NULL; }
  std::string text(int c) const {
    auto p = sqlite3_column_text(st_, c);
    return p ? reinterpret_cast<const char*>(p) : "";
  }

 private:
  Stmt& check(int rc) {
    if (rc != SQLITE_OK) throw Error(std::string("agent records: cannot bind: ") + sqlite3_errmsg(db_));
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

class Txn {
 public:
  explicit Txn(sqlite3* db) : db_(db) { run("BEGIN IMMEDIATE"); }
  ~Txn() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    run("COMMIT");
    done_ = true;
  }

 private:
  void run(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
      std::string m = msg ? msg : "?";
      sqlite3_free(msg);
      throw Error(std::string("agent records: ") + sql + ": " + m);
    }
  }
  sqlite3* db_;
  bool done_ = false;
};

}  // namespace

AgentStore AgentStore::open(const std::filesystem::path& dir) {
  AgentStore s;
  s.path_ = (dir / "kope.db").string();
  if (sqlite3_open_v2(s.path_.c_str(), &s.db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                      nullptr) != SQLITE_OK)
    throw Error("workspace database '" + s.path_ + "': cannot open for the agent's records: " +
                (s.db_ ? sqlite3_errmsg(s.db_) : "out of memory"));
  sqlite3_busy_timeout(s.db_, 10000);
  try {
    s.exec("PRAGMA journal_mode=WAL");
    s.exec("PRAGMA synchronous=FULL");
    s.exec("PRAGMA foreign_keys=ON");
    Txn txn(s.db_);
    s.exec("CREATE TABLE IF NOT EXISTS agent_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    int v = s.schema_version();
    constexpr int known = static_cast<int>(sizeof kAgentMigrations / sizeof kAgentMigrations[0]);
    static_assert(known == kAgentSchemaVersion);
    if (v > known)
      throw Error("agent schema version " + std::to_string(v) + " is newer than this kope knows (" +
                  std::to_string(known) + ")");
    for (; v < known; ++v) {
      s.exec(kAgentMigrations[v]);
      Stmt(s.db_, "INSERT INTO agent_meta(key, value) VALUES('agent_schema_version', ?) "
                  "ON CONFLICT(key) DO UPDATE SET value=excluded.value").bind(1, std::to_string(v + 1)).step();
    }
    txn.commit();
  } catch (const Error& e) {
    throw Error("workspace database '" + s.path_ + "': " + e.what());
  }
  return s;
}

AgentStore::AgentStore(AgentStore&& o) noexcept : db_(o.db_), path_(std::move(o.path_)) { o.db_ = nullptr; }
AgentStore& AgentStore::operator=(AgentStore&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    path_ = std::move(o.path_);
    o.db_ = nullptr;
  }
  return *this;
}
AgentStore::~AgentStore() {
  if (db_) sqlite3_close_v2(db_);
}

void AgentStore::exec(const char* sql) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string m = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    throw Error(m);
  }
}

int AgentStore::schema_version() const {
  Stmt s(db_, "SELECT value FROM agent_meta WHERE key='agent_schema_version'");
  return s.step() ? std::stoi(s.text(0)) : 0;
}

int64_t AgentStore::begin_attempt(const AttemptHeader& h, const Prompt& p) {
  Txn txn(db_);
  Stmt s(db_, std::string("INSERT INTO agent_attempts(run_id, task, device, iteration, profile, provider, model, "
                          "memory_arm, profile_json, budget_json, system_prompt, user_prompt, created_at) "
                          "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,") + kNow + ")");
  s.bind(1, h.run_id).bind(2, h.task).bind(3, h.device).bind(4, int64_t{h.iteration}).bind(5, h.profile);
  s.bind(6, h.provider).bind(7, h.model).bind(8, h.arm).bind(9, h.profile_json.dump());
  s.bind(10, to_json(p.budget).dump()).bind(11, p.system).bind(12, p.user);
  s.step();
  const int64_t id = sqlite3_last_insert_rowid(db_);
  int64_t ord = 0;
  auto put = [&](const Section& x, bool included) {
    Stmt i(db_, "INSERT INTO agent_sections(attempt_id, ord, included, name, tier, source_kind, source_id, label, "
                "tokens, rank) VALUES(?,?,?,?,?,?,?,?,?,?)");
    i.bind(1, id).bind(2, ord++).bind(3, int64_t{included}).bind(4, x.name).bind(5, std::string(tier_name(x.tier)));
    i.bind(6, x.source_kind).bind(7, x.source_id).bind(8, x.label).bind(9, x.tokens).bind(10, x.rank);
    i.step();
  };
  for (const auto& x : p.sections) put(x, true);
  for (const auto& x : p.left_out) put(x, false);
  txn.commit();
  return id;
}

void AgentStore::record_exchange(int64_t attempt, const ExchangeRecord& x) {
  Txn txn(db_);
  Stmt s(db_, "INSERT OR REPLACE INTO agent_exchanges(attempt_id, request_json, answer, reasoning, finish_reason, "
              "prompt_tokens, completion_tokens, usage_from_server, estimated_prompt_tokens, latency_s, retries, "
              "retry_log, cost, error) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
  s.bind(1, attempt).bind(2, x.request_json).bind(3, x.answer).bind(4, x.reasoning).bind(5, x.finish_reason);
  s.bind(6, x.prompt_tokens).bind(7, x.completion_tokens).bind(8, int64_t{x.usage_from_server});
  s.bind(9, x.estimated_prompt_tokens).bind(10, x.latency_s).bind(11, int64_t{x.retries});
  s.bind(12, x.retry_log.dump()).bind(13, x.cost).bind(14, x.error);
  s.step();
  txn.commit();
}

void AgentStore::set_status(int64_t attempt, const std::string& status, const std::string& reason) {
  Txn txn(db_);
  Stmt(db_, std::string("UPDATE agent_attempts SET status=?, reason=?, finished_at=") + kNow + " WHERE id=?")
      .bind(1, status).bind(2, reason).bind(3, attempt).step();
  txn.commit();
}

void AgentStore::link_evaluation(int64_t attempt, int64_t evaluation_id, const std::string& status) {
  Txn txn(db_);
  Stmt(db_, std::string("UPDATE agent_attempts SET evaluation_id=?, status=?, finished_at=") + kNow + " WHERE id=?")
      .bind(1, evaluation_id).bind(2, status).bind(3, attempt).step();
  txn.commit();
}

std::optional<json> AgentStore::transcript(int64_t attempt) const {
  Stmt a(db_, "SELECT run_id, task, device, iteration, profile, provider, model, memory_arm, profile_json, "
              "budget_json, system_prompt, user_prompt, status, reason, evaluation_id, created_at, "
              "COALESCE(finished_at,'') FROM agent_attempts WHERE id=?");
  a.bind(1, attempt);
  if (!a.step()) return std::nullopt;
  json j = {{"attempt_id", attempt}, {"run_id", a.i64(0)}, {"task", a.text(1)}, {"device", a.text(2)},
            {"iteration", a.i64(3)}, {"profile", a.text(4)}, {"provider", a.text(5)}, {"model", a.text(6)},
            {"memory", a.text(7)}, {"profile_settings", json::parse(a.text(8), nullptr, false)},
            {"budget", json::parse(a.text(9), nullptr, false)}, {"system_prompt", a.text(10)},
            {"user_prompt", a.text(11)}, {"status", a.text(12)}, {"reason", a.text(13)},
            {"evaluation_id", a.null(14) ? json(nullptr) : json(a.i64(14))}, {"created_at", a.text(15)},
            {"finished_at", a.text(16)}};
  json sections = json::array(), left = json::array();
  Stmt s(db_, "SELECT included, name, tier, source_kind, source_id, label, tokens, rank FROM agent_sections "
              "WHERE attempt_id=? ORDER BY ord");
  s.bind(1, attempt);
  while (s.step()) {
    json x = {{"name", s.text(1)}, {"tier", s.text(2)}, {"source_kind", s.text(3)}, {"source_id", s.i64(4)},
              {"label", s.text(5)}, {"tokens", s.i64(6)}, {"rank", s.f64(7)}};
    (s.i64(0) ? sections : left).push_back(x);
  }
  j["sections"] = sections;
  j["left_out"] = left;
  Stmt x(db_, "SELECT request_json, answer, reasoning, finish_reason, prompt_tokens, completion_tokens, "
              "usage_from_server, estimated_prompt_tokens, latency_s, retries, retry_log, cost, error "
              "FROM agent_exchanges WHERE attempt_id=?");
  x.bind(1, attempt);
  if (x.step()) {
    j["request"] = json::parse(x.text(0), nullptr, false);
    j["reply"] = {{"answer", x.text(1)}, {"reasoning", x.text(2)}, {"finish_reason", x.text(3)}};
    j["usage"] = {{"prompt_tokens", x.i64(4)}, {"completion_tokens", x.i64(5)},
                  {"source", x.i64(6) ? "server" : "estimated"}, {"estimated_prompt_tokens", x.i64(7)}};
    j["latency_s"] = x.f64(8);
    j["retries"] = x.i64(9);
    j["retry_log"] = json::parse(x.text(10), nullptr, false);
    j["cost"] = x.null(11) ? json(nullptr) : json(x.f64(11));
    j["error"] = x.text(12);
  }
  return j;
}

std::optional<int64_t> AgentStore::attempt_of_evaluation(int64_t evaluation_id) const {
  Stmt s(db_, "SELECT id FROM agent_attempts WHERE evaluation_id=? ORDER BY id DESC LIMIT 1");
  s.bind(1, evaluation_id);
  if (!s.step()) return std::nullopt;
  return s.i64(0);
}

std::vector<int64_t> AgentStore::attempts_of_run(int64_t run_id) const {
  Stmt s(db_, "SELECT id FROM agent_attempts WHERE run_id=? ORDER BY id");
  s.bind(1, run_id);
  std::vector<int64_t> out;
  while (s.step()) out.push_back(s.i64(0));
  return out;
}

double AgentStore::calibration(const std::string& profile) const {
  Stmt s(db_, "SELECT ratio FROM agent_calibration WHERE profile=?");
  s.bind(1, profile);
  return s.step() ? s.f64(0) : 1.0;
}

void AgentStore::add_calibration_sample(const std::string& profile, int64_t estimated, int64_t reported) {
  if (estimated <= 0 || reported <= 0) return;
  const double obs = static_cast<double>(reported) / static_cast<double>(estimated);
  Txn txn(db_);
  double ratio = 1.0;
  int64_t n = 0;
  {
    Stmt s(db_, "SELECT ratio, samples FROM agent_calibration WHERE profile=?");
    s.bind(1, profile);
    if (s.step()) {
      ratio = s.f64(0);
      n = s.i64(1);
    }
  }
  // A running mean over at most the last 20 samples' weight, so a change of model settles quickly.
  const int64_t w = std::min<int64_t>(n, 19);
  ratio = (ratio * static_cast<double>(w) + obs) / static_cast<double>(w + 1);
  Stmt(db_, std::string("INSERT INTO agent_calibration(profile, ratio, samples, updated_at) VALUES(?,?,?,") + kNow +
                ") ON CONFLICT(profile) DO UPDATE SET ratio=excluded.ratio, samples=excluded.samples, "
                "updated_at=excluded.updated_at")
      .bind(1, profile).bind(2, ratio).bind(3, n + 1).step();
  txn.commit();
}

}  // namespace kope::agent
