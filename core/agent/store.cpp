// The agent's records in the workspace database (see kope/agent/store.h), on kope::store's statements and transactions.
#include "kope/agent/store.h"

#include <sqlite3.h>

#include "kope/base/error.h"
#include "kope/store/db.h"

namespace kope::agent {

using nlohmann::json;
using store::Stmt;
using store::Txn;

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

// kope::store's errors say "database"; the agent's say whose records failed (kept an EnvError when it was one).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const EnvError& e) {
    throw EnvError(std::string("agent records: ") + e.what());
  } catch (const Error& e) {
    throw Error(std::string("agent records: ") + e.what());
  }
}

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
    guarded([&] {
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
                    "ON CONFLICT(key) DO UPDATE SET value=excluded.value").bind(1, std::to_string(v + 1)).run();
      }
      txn.commit();
    });
  } catch (const Error& e) {
    throw Error("workspace database '" + s.path_ + "': " + e.what());
  }
  s.tables_seen_ = true;
  return s;
}

AgentStore AgentStore::reader(sqlite3* db) {
  if (!db) throw Error("agent records: no workspace database to read from");
  AgentStore s;
  s.db_ = db;
  s.owned_ = false;
  return s;
}

AgentStore::AgentStore(AgentStore&& o) noexcept
    : db_(o.db_), owned_(o.owned_), tables_seen_(o.tables_seen_), path_(std::move(o.path_)) {
  o.db_ = nullptr;
}
AgentStore& AgentStore::operator=(AgentStore&& o) noexcept {
  if (this != &o) {
    close();
    db_ = o.db_;
    owned_ = o.owned_;
    tables_seen_ = o.tables_seen_;
    path_ = std::move(o.path_);
    o.db_ = nullptr;
  }
  return *this;
}
AgentStore::~AgentStore() { close(); }

void AgentStore::close() {
  if (db_ && owned_) sqlite3_close_v2(db_);
  db_ = nullptr;
}

void AgentStore::exec(const char* sql) { store::exec(db_, sql); }

// A reader's workspace may have no agent tables yet; once they exist they stay.
bool AgentStore::has_tables() const {
  if (!tables_seen_) {
    Stmt s(db_, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='agent_attempts'");
    tables_seen_ = s.step();
  }
  return tables_seen_;
}

int AgentStore::schema_version() const {
  return guarded([&] {
    Stmt t(db_, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='agent_meta'");
    if (!t.step()) return 0;
    Stmt s(db_, "SELECT value FROM agent_meta WHERE key='agent_schema_version'");
    return s.step() ? std::stoi(s.text(0)) : 0;
  });
}

int64_t AgentStore::begin_attempt(const AttemptHeader& h, const Prompt& p) {
  return guarded([&] {
    Txn txn(db_);
    Stmt s(db_, std::string("INSERT INTO agent_attempts(run_id, task, device, iteration, profile, provider, model, "
                            "memory_arm, profile_json, budget_json, system_prompt, user_prompt, created_at) "
                            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,") + kNow + ")");
    s.bind_all(h.run_id, h.task, h.device, h.iteration, h.profile, h.provider, h.model, h.arm, h.profile_json.dump(),
               to_json(p.budget).dump(), p.system, p.user);
    s.run();
    const int64_t id = store::last_insert_id(db_);
    int64_t ord = 0;
    Stmt i(db_, "INSERT INTO agent_sections(attempt_id, ord, included, name, tier, source_kind, source_id, label, "
                "tokens, rank) VALUES(?,?,?,?,?,?,?,?,?,?)");
    auto put = [&](const Section& x, bool included) {
      i.reset();
      i.bind_all(id, ord++, included, x.name, std::string(tier_name(x.tier)), x.source_kind, x.source_id, x.label,
                 x.tokens, x.rank);
      i.run();
    };
    for (const auto& x : p.sections) put(x, true);
    for (const auto& x : p.left_out) put(x, false);
    txn.commit();
    return id;
  });
}

void AgentStore::record_exchange(int64_t attempt, const ExchangeRecord& x) {
  guarded([&] {
    Txn txn(db_);
    Stmt s(db_, "INSERT OR REPLACE INTO agent_exchanges(attempt_id, request_json, answer, reasoning, finish_reason, "
                "prompt_tokens, completion_tokens, usage_from_server, estimated_prompt_tokens, latency_s, retries, "
                "retry_log, cost, error) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    s.bind_all(attempt, x.request_json, x.answer, x.reasoning, x.finish_reason, x.prompt_tokens, x.completion_tokens,
               x.usage_from_server, x.estimated_prompt_tokens, x.latency_s, x.retries, x.retry_log.dump(), x.cost,
               x.error);
    s.run();
    txn.commit();
  });
}

void AgentStore::set_status(int64_t attempt, const std::string& status, const std::string& reason) {
  guarded([&] {
    Txn txn(db_);
    Stmt(db_, std::string("UPDATE agent_attempts SET status=?, reason=?, finished_at=") + kNow + " WHERE id=?")
        .bind_all(status, reason, attempt).run();
    txn.commit();
  });
}

void AgentStore::link_evaluation(int64_t attempt, int64_t evaluation_id, const std::string& status) {
  guarded([&] {
    Txn txn(db_);
    Stmt(db_, std::string("UPDATE agent_attempts SET evaluation_id=?, status=?, finished_at=") + kNow + " WHERE id=?")
        .bind_all(evaluation_id, status, attempt).run();
    txn.commit();
  });
}

namespace {

std::vector<SectionRecord> read_sections(sqlite3* db, int64_t attempt) {
  Stmt s(db, "SELECT included, name, tier, source_kind, source_id, label, tokens, rank FROM agent_sections "
             "WHERE attempt_id=? ORDER BY ord");
  s.bind(1, attempt);
  std::vector<SectionRecord> out;
  while (s.step()) out.push_back({s.i64(0) != 0, s.text(1), s.text(2), s.text(3), s.text(5), s.i64(4), s.i64(6), s.f64(7)});
  return out;
}

std::optional<ExchangeRecord> read_exchange(sqlite3* db, int64_t attempt) {
  Stmt x(db, "SELECT request_json, answer, reasoning, finish_reason, prompt_tokens, completion_tokens, "
             "usage_from_server, estimated_prompt_tokens, latency_s, retries, retry_log, cost, error "
             "FROM agent_exchanges WHERE attempt_id=?");
  x.bind(1, attempt);
  if (!x.step()) return std::nullopt;
  ExchangeRecord r;
  r.request_json = x.text(0);
  r.answer = x.text(1);
  r.reasoning = x.text(2);
  r.finish_reason = x.text(3);
  r.prompt_tokens = x.i64(4);
  r.completion_tokens = x.i64(5);
  r.usage_from_server = x.i64(6) != 0;
  r.estimated_prompt_tokens = x.i64(7);
  r.latency_s = x.f64(8);
  r.retries = static_cast<int>(x.i64(9));
  r.retry_log = json::parse(x.text(10), nullptr, false);
  r.cost = x.opt_f64(11);
  r.error = x.text(12);
  return r;
}

}  // namespace

std::optional<AttemptRecord> AgentStore::attempt(int64_t id) const {
  return guarded([&]() -> std::optional<AttemptRecord> {
    if (!has_tables()) return std::nullopt;
    Stmt a(db_, "SELECT run_id, task, device, iteration, profile, provider, model, memory_arm, profile_json, "
                "budget_json, system_prompt, user_prompt, status, reason, evaluation_id, created_at, "
                "COALESCE(finished_at,'') FROM agent_attempts WHERE id=?");
    a.bind(1, id);
    if (!a.step()) return std::nullopt;
    AttemptRecord r;
    r.id = id;
    r.header = {a.i64(0), a.text(1), a.text(2), static_cast<int>(a.i64(3)), a.text(4), a.text(5), a.text(6),
                a.text(7), json::parse(a.text(8), nullptr, false)};
    r.budget = json::parse(a.text(9), nullptr, false);
    r.system_prompt = a.text(10);
    r.user_prompt = a.text(11);
    r.status = a.text(12);
    r.reason = a.text(13);
    r.evaluation_id = a.opt_i64(14);
    r.created_at = a.text(15);
    r.finished_at = a.text(16);
    r.sections = read_sections(db_, id);
    r.exchange = read_exchange(db_, id);
    return r;
  });
}

std::optional<json> AgentStore::transcript(int64_t attempt_id) const {
  const auto r = attempt(attempt_id);
  if (!r) return std::nullopt;
  const AttemptHeader& h = r->header;
  json j = {{"attempt_id", r->id}, {"run_id", h.run_id}, {"task", h.task}, {"device", h.device},
            {"iteration", h.iteration}, {"profile", h.profile}, {"provider", h.provider}, {"model", h.model},
            {"memory", h.arm}, {"profile_settings", h.profile_json}, {"budget", r->budget},
            {"system_prompt", r->system_prompt}, {"user_prompt", r->user_prompt}, {"status", r->status},
            {"reason", r->reason}, {"evaluation_id", r->evaluation_id ? json(*r->evaluation_id) : json(nullptr)},
            {"created_at", r->created_at}, {"finished_at", r->finished_at}};
  json sections = json::array(), left = json::array();
  for (const auto& s : r->sections)
    (s.included ? sections : left)
        .push_back({{"name", s.name}, {"tier", s.tier}, {"source_kind", s.source_kind}, {"source_id", s.source_id},
                    {"label", s.label}, {"tokens", s.tokens}, {"rank", s.rank}});
  j["sections"] = sections;
  j["left_out"] = left;
  if (const auto& x = r->exchange) {
    j["request"] = json::parse(x->request_json, nullptr, false);
    j["reply"] = {{"answer", x->answer}, {"reasoning", x->reasoning}, {"finish_reason", x->finish_reason}};
    j["usage"] = {{"prompt_tokens", x->prompt_tokens}, {"completion_tokens", x->completion_tokens},
                  {"source", x->usage_from_server ? "server" : "estimated"},
                  {"estimated_prompt_tokens", x->estimated_prompt_tokens}};
    j["latency_s"] = x->latency_s;
    j["retries"] = x->retries;
    j["retry_log"] = x->retry_log;
    j["cost"] = x->cost ? json(*x->cost) : json(nullptr);
    j["error"] = x->error;
  }
  return j;
}

std::optional<int64_t> AgentStore::attempt_of_evaluation(int64_t evaluation_id) const {
  return guarded([&]() -> std::optional<int64_t> {
    if (!has_tables()) return std::nullopt;
    Stmt s(db_, "SELECT id FROM agent_attempts WHERE evaluation_id=? ORDER BY id DESC LIMIT 1");
    s.bind(1, evaluation_id);
    if (!s.step()) return std::nullopt;
    return s.i64(0);
  });
}

std::vector<int64_t> AgentStore::attempts_of_run(int64_t run_id) const {
  return guarded([&] {
    std::vector<int64_t> out;
    if (!has_tables()) return out;
    Stmt s(db_, "SELECT id FROM agent_attempts WHERE run_id=? ORDER BY id");
    s.bind(1, run_id);
    while (s.step()) out.push_back(s.i64(0));
    return out;
  });
}

double AgentStore::calibration(const std::string& profile) const {
  return guarded([&] {
    if (!has_tables()) return 1.0;
    Stmt s(db_, "SELECT ratio FROM agent_calibration WHERE profile=?");
    s.bind(1, profile);
    return s.step() ? s.f64(0) : 1.0;
  });
}

void AgentStore::add_calibration_sample(const std::string& profile, int64_t estimated, int64_t reported) {
  if (estimated <= 0 || reported <= 0) return;
  const double obs = static_cast<double>(reported) / static_cast<double>(estimated);
  guarded([&] {
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
        .bind_all(profile, ratio, n + 1).run();
    txn.commit();
  });
}

}  // namespace kope::agent
