// The memory's schema and its own migration track (memory_meta.schema_version), and the back-fill that turns
// recorded evaluations into Cases.
#include <sqlite3.h>

#include <cstdlib>

#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/store/db.h"

namespace kope::memory {

using store::exec;
using store::Stmt;

namespace {

// Each entry takes the memory schema from version i to i + 1.
const char* const kMemoryMigrations[] = {
    R"sql(
CREATE TABLE memory_hardware(
  id INTEGER PRIMARY KEY,
  digest TEXT NOT NULL UNIQUE,
  fingerprint TEXT NOT NULL);
CREATE TABLE memory_origins(
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL UNIQUE,
  device TEXT NOT NULL,
  hardware_id INTEGER REFERENCES memory_hardware(id),
  file TEXT NOT NULL,
  imported_at TEXT NOT NULL);
CREATE TABLE memory_scenes(
  task_digest TEXT PRIMARY KEY,
  task TEXT NOT NULL,
  scene TEXT NOT NULL);
CREATE TABLE memory_cases(
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  evaluation_id INTEGER UNIQUE REFERENCES evaluations(id),
  origin_id INTEGER REFERENCES memory_origins(id),
  prev_case_id INTEGER REFERENCES memory_cases(id),
  task TEXT NOT NULL,
  task_digest TEXT NOT NULL,
  device TEXT NOT NULL,
  hardware_id INTEGER REFERENCES memory_hardware(id),
  kernel_id INTEGER REFERENCES kernels(id),
  kernel_sha256 TEXT NOT NULL,
  kernel_name TEXT NOT NULL,
  thought TEXT NOT NULL,
  tags TEXT NOT NULL,
  layers TEXT NOT NULL,
  diff TEXT NOT NULL,
  status TEXT NOT NULL,
  compiled INTEGER NOT NULL,
  correct INTEGER NOT NULL,
  feedback TEXT NOT NULL,
  a REAL NOT NULL,
  c REAL NOT NULL,
  interval_lo REAL,
  interval_hi REAL,
  run_id INTEGER,
  step INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  depth INTEGER NOT NULL,
  r REAL NOT NULL,
  label TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  d REAL NOT NULL,
  score REAL NOT NULL,
  pruned INTEGER NOT NULL DEFAULT 0,
  pinned INTEGER NOT NULL DEFAULT 0,
  flag TEXT);
CREATE INDEX memory_cases_children ON memory_cases(prev_case_id, id);
CREATE INDEX memory_cases_rank ON memory_cases(task, bucket, score DESC, id DESC) WHERE pruned=0 AND flag IS NULL;
CREATE INDEX memory_cases_kernel ON memory_cases(task, device, kernel_sha256);
CREATE INDEX memory_cases_pinned ON memory_cases(pinned) WHERE pinned=1;
CREATE TABLE memory_case_tags(
  tag TEXT NOT NULL,
  case_id INTEGER NOT NULL REFERENCES memory_cases(id),
  PRIMARY KEY(tag, case_id)) WITHOUT ROWID;
CREATE TABLE memory_journal(
  id INTEGER PRIMARY KEY,
  case_id INTEGER REFERENCES memory_cases(id),
  task TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at TEXT NOT NULL,
  markdown TEXT NOT NULL);
CREATE INDEX memory_journal_task ON memory_journal(task, id);
CREATE INDEX memory_journal_case ON memory_journal(case_id, id);
CREATE TRIGGER memory_journal_no_update BEFORE UPDATE ON memory_journal
BEGIN SELECT RAISE(ABORT, 'journal entries are append-only: they cannot be changed'); END;
CREATE TRIGGER memory_journal_no_delete BEFORE DELETE ON memory_journal
BEGIN SELECT RAISE(ABORT, 'journal entries are append-only: they cannot be deleted'); END;
CREATE TABLE memory_curation(
  id INTEGER PRIMARY KEY,
  case_id INTEGER NOT NULL REFERENCES memory_cases(id),
  act TEXT NOT NULL,
  subtree INTEGER NOT NULL,
  affected INTEGER NOT NULL,
  who TEXT NOT NULL,
  at TEXT NOT NULL,
  why TEXT NOT NULL);
CREATE INDEX memory_curation_case ON memory_curation(case_id, id);
CREATE TABLE attempt_context(
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  rank INTEGER NOT NULL,
  case_id INTEGER NOT NULL REFERENCES memory_cases(id),
  provenance TEXT NOT NULL,
  kind TEXT NOT NULL,
  score REAL NOT NULL,
  PRIMARY KEY(evaluation_id, rank));
)sql",
};

std::optional<std::string> meta(sqlite3* db, const std::string& key) {
  Stmt s(db, "SELECT value FROM memory_meta WHERE key=?");
  s.bind(1, key);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

void set_meta(sqlite3* db, const std::string& key, const std::string& value) {
  Stmt(db, "INSERT INTO memory_meta(key, value) VALUES(?,?) ON CONFLICT(key) DO UPDATE SET value=excluded.value")
      .bind(1, key).bind(2, value).run();
}

bool table_exists(sqlite3* db, const std::string& name) {
  Stmt s(db, "SELECT 1 FROM sqlite_master WHERE name=?");
  s.bind(1, name);
  return s.step();
}

bool fts_wanted(sqlite3* db, bool use_fts) {
  if (!use_fts) return false;
  if (const char* e = std::getenv("KOPE_MEMORY_NO_FTS"); e && *e && std::string(e) != "0") return false;
  static const bool available = store::fts5_available(db);
  return available;
}

int64_t max_evaluation_id(sqlite3* db) {
  if (!table_exists(db, "evaluations")) return 0;
  Stmt s(db, "SELECT COALESCE(MAX(id), 0) FROM evaluations");
  s.step();
  return s.i64(0);
}

}  // namespace

const char* const kFtsCreate =
    "CREATE VIRTUAL TABLE memory_fts USING fts5(task, digest, journal, content='', tokenize='unicode61')";

std::string case_digest_text(const std::string& task, const std::string& tags, const std::string& layers,
                             const std::string& thought, const std::string& label, const std::string& status,
                             const std::string& feedback) {
  std::string f = feedback.substr(0, 400);
  return task + " " + tags + " " + layers + " " + label + " " + status + ". " + thought + ". " + f;
}

void MemoryStore::ensure_schema(sqlite3* db, bool use_fts) {
  constexpr int known = static_cast<int>(sizeof kMemoryMigrations / sizeof kMemoryMigrations[0]);
  static_assert(known == kMemorySchemaVersion);
  const bool want_fts = fts_wanted(db, use_fts);
  // Nothing to do (the common case): read-only check, no write lock.
  if (table_exists(db, "memory_meta")) {
    auto v = meta(db, "schema_version");
    auto mark = meta(db, "scanned_evaluations");
    if (v && std::stoi(*v) == known && (!want_fts || table_exists(db, "memory_fts")) &&
        std::stoll(mark.value_or("0")) >= max_evaluation_id(db))
      return;
  }
  store::Txn txn(db);
  exec(db, "CREATE TABLE IF NOT EXISTS memory_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)", "memory schema");
  int v = std::stoi(meta(db, "schema_version").value_or("0"));
  if (v > known)
    throw Error("memory schema version " + std::to_string(v) + " is newer than this kope knows (" +
                std::to_string(known) + "); use a newer kope or another workspace");
  for (; v < known; ++v) {
    exec(db, kMemoryMigrations[v], "memory schema migration");
    set_meta(db, "schema_version", std::to_string(v + 1));
  }
  if (!meta(db, "workspace_id")) set_meta(db, "workspace_id", new_uuid());
  if (!meta(db, "scanned_evaluations")) set_meta(db, "scanned_evaluations", "0");
  const bool has_fts = table_exists(db, "memory_fts");
  if (want_fts && !has_fts) {
    exec(db, kFtsCreate, "memory full-text index");
    // Back-fill: every Case's digest and its attempt Journal entry.
    Stmt sel(db, "SELECT c.id, c.task, c.tags, c.layers, c.thought, c.label, c.status, c.feedback, "
                 "COALESCE((SELECT markdown FROM memory_journal j WHERE j.case_id=c.id ORDER BY j.id LIMIT 1),'') "
                 "FROM memory_cases c ORDER BY c.id");
    Stmt ins(db, "INSERT INTO memory_fts(rowid, task, digest, journal) VALUES(?,?,?,?)");
    while (sel.step()) {
      ins.reset();
      ins.bind(1, sel.i64(0)).bind(2, sel.text(1));
      ins.bind(3, case_digest_text(sel.text(1), sel.text(2), sel.text(3), sel.text(4), sel.text(5), sel.text(6),
                                   sel.text(7)));
      ins.bind(4, sel.text(8));
      ins.run();
    }
  }
  // Recorded evaluations without a Case (a workspace from before the memory, or written by an older kope).
  if (table_exists(db, "evaluations")) {
    const int64_t mark = std::stoll(meta(db, "scanned_evaluations").value_or("0"));
    std::vector<int64_t> ids;
    {
      Stmt s(db, "SELECT e.id FROM evaluations e LEFT JOIN memory_cases c ON c.evaluation_id = e.id "
                 "WHERE e.id > ? AND c.id IS NULL AND e.status NOT IN ('running','interrupted','error','cancelled') "
                 "AND e.report IS NOT NULL ORDER BY e.id");
      s.bind(1, mark);
      while (s.step()) ids.push_back(s.i64(0));
    }
    MemoryStore m(db);
    for (int64_t id : ids) m.record_evaluation(id);
    set_meta(db, "scanned_evaluations", std::to_string(max_evaluation_id(db)));
  }
  txn.commit();
}

MemoryStore::MemoryStore(sqlite3* db) : db_(db) {
  Stmt s(db, "SELECT 1 FROM sqlite_master WHERE name='memory_fts'");
  fts_ = s.step() && fts_wanted(db, true);
}

int MemoryStore::schema_version() const { return std::stoi(meta(db_, "schema_version").value_or("0")); }
std::string MemoryStore::workspace_id() const {
  if (workspace_id_.empty()) workspace_id_ = meta(db_, "workspace_id").value_or("");
  return workspace_id_;
}

MemoryStore::Cached MemoryStore::stmt(const std::string& sql) const {
  auto& p = stmts_[sql];
  if (!p) p = std::make_unique<Stmt>(db_, sql);
  return Cached(*p);
}
bool MemoryStore::fts_enabled() const { return fts_; }

GraphWeights MemoryStore::weights() const {
  if (weights_) return *weights_;
  GraphWeights w;
  if (auto v = meta(db_, "graph_weights")) {
    auto j = nlohmann::json::parse(*v, nullptr, false);
    if (j.is_object()) {
      w.w_self = j.value("w_self", w.w_self);
      w.w_succ = j.value("w_succ", w.w_succ);
      w.gamma = j.value("gamma", w.gamma);
    }
  }
  weights_ = w;
  return w;
}

void MemoryStore::set_weights(const GraphWeights& w) {
  store::Txn txn(db_);
  weights_ = w;
  set_meta(db_, "graph_weights", nlohmann::json{{"w_self", w.w_self}, {"w_succ", w.w_succ}, {"gamma", w.gamma}}.dump());
  rebuild_graph();
  txn.commit();
}

}  // namespace kope::memory
