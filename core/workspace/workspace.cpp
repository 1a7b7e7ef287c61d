#include "kope/workspace/workspace.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "kope/base/error.h"
#include "kope/memory/memory.h"
#include "kope/base/sha256.h"
#include "kope/base/text.h"
#include "kope/store/db.h"

namespace kope::workspace {

namespace fs = std::filesystem;
using store::Stmt;
using WriteTxn = store::Txn;

namespace {

// Each entry takes the schema from version i to i + 1, in one transaction.
const char* const kMigrationsArray[] = {
    R"sql(
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  command TEXT NOT NULL,
  device TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'running',
  host TEXT NOT NULL,
  pid INTEGER NOT NULL);
CREATE TABLE kernels(
  id INTEGER PRIMARY KEY,
  task TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  source TEXT NOT NULL,
  origin TEXT NOT NULL,
  thought TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  UNIQUE(task, sha256));
CREATE TABLE evaluations(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  prev_evaluation_id INTEGER REFERENCES evaluations(id),
  task TEXT NOT NULL,
  task_digest TEXT NOT NULL,
  device TEXT NOT NULL,
  status TEXT NOT NULL,
  compiled INTEGER,
  correct INTEGER,
  speedup REAL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  report TEXT);
CREATE INDEX evaluations_by_task ON evaluations(task, id);
CREATE TABLE case_results(
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  case_name TEXT NOT NULL,
  status TEXT NOT NULL,
  correct INTEGER NOT NULL,
  mean_rel_err REAL,
  max_rel_err REAL,
  baseline_median_ns REAL,
  kernel_median_ns REAL,
  speedup REAL,
  message TEXT NOT NULL,
  PRIMARY KEY(evaluation_id, case_name));
CREATE TABLE incumbents(
  task TEXT NOT NULL,
  device TEXT NOT NULL,
  kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  speedup REAL NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY(task, device));
)sql",
    // 2: a person's review of a kernel too fast to believe (faster than the hardware floor allows).
    R"sql(
ALTER TABLE evaluations ADD COLUMN review TEXT CHECK(review IS NULL OR review IN ('pending','approved','rejected'));
ALTER TABLE evaluations ADD COLUMN review_note TEXT;
ALTER TABLE evaluations ADD COLUMN reviewed_at TEXT;
CREATE INDEX evaluations_by_review ON evaluations(review, id) WHERE review IS NOT NULL;
CREATE TABLE review_log(
  id INTEGER PRIMARY KEY,
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id),
  decision TEXT NOT NULL CHECK(decision IN ('pending','approved','rejected')),
  note TEXT NOT NULL DEFAULT '',
  promoted INTEGER NOT NULL DEFAULT 0,
  decided_at TEXT NOT NULL);
)sql",
    // 3: the baseline an incumbent's speedup is against (issue 11); those stored before were all naive.
    R"sql(
ALTER TABLE incumbents ADD COLUMN baseline TEXT NOT NULL DEFAULT 'naive';
)sql",
    // 4: the evaluations still running, which every open looks for (mark_interrupted): without it each open of a
    // workspace of 100,000 evaluations read the whole table, reports and all (0.35 s, on the window's thread).
    R"sql(
CREATE INDEX evaluations_running ON evaluations(run_id) WHERE status = 'running';
)sql",
};

const std::vector<const char*> kMigrations(std::begin(kMigrationsArray), std::end(kMigrationsArray));

constexpr const char* kNow = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

std::string hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

}  // namespace

fs::path Workspace::absolute_dir(const fs::path& dir) {
  if (dir.empty()) return dir;
  std::error_code ec;
  fs::path abs = fs::absolute(dir, ec);
  if (ec) throw EnvError("workspace '" + dir.string() + "': cannot make the path absolute: " + ec.message());
  return abs.lexically_normal();
}

fs::path Workspace::default_dir() {
  if (const char* w = std::getenv("KOPE_WORKSPACE"); w && *w) return absolute_dir(w);
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return absolute_dir(fs::path(x) / "kope");
  if (const char* h = std::getenv("HOME"); h && *h) return absolute_dir(fs::path(h) / ".local" / "share" / "kope");
  return absolute_dir(fs::current_path() / ".kope");
}

Workspace Workspace::open(const fs::path& where) {
  Workspace w;
  // Job folders, builds and goldens live under it, and processes run in other folders: never relative.
  const fs::path dir = absolute_dir(where);
  w.dir_ = dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw EnvError("workspace '" + dir.string() + "': cannot create the folder: " + ec.message());
  if (!fs::is_directory(dir, ec)) throw EnvError("workspace '" + dir.string() + "': exists but is not a folder");
  const fs::path db = dir / "kope.db";
  // SQLite, refused a read-write open, retries read-only and then reports that attempt's errno: ask the OS first.
  if (access(dir.c_str(), W_OK) != 0) {
    const int e = errno;
    throw EnvError("workspace '" + dir.string() + "': cannot write there (" + std::strerror(e) + "), so '" +
                   db.string() + "' cannot be created or updated; use another --workspace");
  }
  w.conn_ = store::Connection(db.string());
  w.migrate();
  memory::MemoryStore::ensure_schema(w.db_());  // the memory's own tables and migration track
  w.mark_interrupted();
  return w;
}

int Workspace::schema_version() const {
  Stmt s(db_(), "PRAGMA user_version");
  s.step();
  return static_cast<int>(s.i64(0));
}

void Workspace::migrate() {
  static_assert(std::size(kMigrationsArray) == kSchemaVersion);
  store::migrate_user_version(db_(), kMigrations);
}

void Workspace::mark_interrupted() {
  // A run still "running" whose process on this host is gone was cut short; say so instead of leaving it open.
  std::vector<int64_t> dead;
  {
    Stmt s(db_(), "SELECT id, pid FROM runs WHERE status='running' AND host=?");
    s.bind(1, hostname());
    while (s.step()) {
      pid_t pid = static_cast<pid_t>(s.i64(1));
      if (pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH) dead.push_back(s.i64(0));
    }
  }
  // An evaluation still "running" in a run that has ended (whatever the reason) was cut short as well.
  bool orphans = false;
  {
    Stmt s(db_(), "SELECT 1 FROM evaluations e JOIN runs r ON r.id = e.run_id WHERE e.status='running' AND "
                "r.status <> 'running' LIMIT 1");
    orphans = s.step();
  }
  if (dead.empty() && !orphans) return;
  WriteTxn txn(db_());
  for (int64_t id : dead)
    Stmt(db_(), std::string("UPDATE runs SET status='interrupted', finished_at=") + kNow + " WHERE id=?").bind(1, id).step();
  Stmt(db_(), std::string("UPDATE evaluations SET status='interrupted', finished_at=") + kNow +
                " WHERE status='running' AND run_id IN (SELECT id FROM runs WHERE status <> 'running')").step();
  txn.commit();
}

int64_t Workspace::begin_run(const std::string& command, const std::string& device) {
  WriteTxn txn(db_());
  Stmt s(db_(), std::string("INSERT INTO runs(started_at, command, device, host, pid) VALUES(") + kNow + ", ?, ?, ?, ?)");
  s.bind(1, command).bind(2, device).bind(3, hostname()).bind(4, static_cast<int64_t>(getpid()));
  s.step();
  int64_t id = store::last_insert_id(db_());
  txn.commit();
  return id;
}

void Workspace::finish_run(int64_t run, const std::string& status) {
  WriteTxn txn(db_());
  Stmt(db_(), std::string("UPDATE runs SET status=?, finished_at=") + kNow + " WHERE id=?").bind(1, status).bind(2, run).step();
  txn.commit();
}

std::vector<RunRow> Workspace::runs(int limit) const {
  Stmt s(db_(), "SELECT id, command, device, status, started_at, COALESCE(finished_at,'') FROM runs ORDER BY id DESC LIMIT ?");
  s.bind(1, static_cast<int64_t>(limit));
  std::vector<RunRow> out;
  while (s.step()) out.push_back({s.i64(0), s.text(1), s.text(2), s.text(3), s.text(4), s.text(5)});
  return out;
}

int64_t Workspace::add_kernel(const std::string& task, const std::string& source, const std::string& origin,
                              const std::string& thought) {
  const std::string sha = sha256_hex(source);
  WriteTxn txn(db_());
  // A row an import wrote under this task before imports were kept apart (origin memory-import:...) is taken
  // back: this evaluation's text, name and thought replace what the import claimed.
  Stmt ins(db_(), std::string("INSERT INTO kernels(task, sha256, source, origin, thought, created_at) VALUES(?,?,?,?,?,") +
                    kNow + ") ON CONFLICT(task, sha256) DO UPDATE SET source=excluded.source, origin=excluded.origin, "
                           "thought=excluded.thought WHERE kernels.origin LIKE 'memory-import:%'");
  ins.bind(1, task).bind(2, sha).bind(3, source).bind(4, origin).bind(5, thought);
  ins.step();
  Stmt sel(db_(), "SELECT id, source FROM kernels WHERE task=? AND sha256=?");
  sel.bind(1, task).bind(2, sha);
  sel.step();
  int64_t id = sel.i64(0);
  if (sel.text(1) != source)  // content-addressed: a row whose text is not its hash's is never evaluated
    throw Error("workspace " + dir_.string() + ": kernels row " + std::to_string(id) + " (task " + task + ", sha256 " +
                sha + ") holds a different text than its hash: the database was changed outside kope");
  txn.commit();
  return id;
}

std::optional<std::string> Workspace::kernel_source(int64_t kernel) const {
  Stmt s(db_(), "SELECT source FROM kernels WHERE id=?");
  s.bind(1, kernel);
  if (!s.step()) return std::nullopt;
  return s.text(0);
}

int64_t Workspace::begin_evaluation(int64_t run, int64_t kernel, const Task& task, const std::string& device,
                                    std::optional<int64_t> prev) {
  WriteTxn txn(db_());
  Stmt s(db_(), std::string("INSERT INTO evaluations(run_id, kernel_id, prev_evaluation_id, task, task_digest, device, "
                          "status, started_at) VALUES(?,?,?,?,?,?,'running',") + kNow + ")");
  s.bind(1, run).bind(2, kernel).bind(3, prev).bind(4, task.name).bind(5, task.digest).bind(6, device);
  s.step();
  int64_t id = store::last_insert_id(db_());
  txn.commit();
  return id;
}

void Workspace::finish_evaluation(int64_t evaluation, const EvalReport& rep) {
  WriteTxn txn(db_());
  const nlohmann::json report_json = rep.to_json();
  Stmt u(db_(), std::string("UPDATE evaluations SET status=?, compiled=?, correct=?, speedup=?, report=?, finished_at=") +
                  kNow + " WHERE id=?");
  u.bind(1, rep.status()).bind(2, int64_t{rep.compiled}).bind(3, int64_t{rep.correct()}).bind(4, rep.speedup());
  u.bind(5, dump_json(report_json)).bind(6, evaluation);
  u.step();
  for (const CaseResult& c : rep.cases) {
    std::optional<double> mean, max;
    for (const auto& o : c.outputs) {
      mean = std::max(mean.value_or(0.0), o.mean_rel);
      max = std::max(max.value_or(0.0), o.max_rel);
    }
    Stmt i(db_(), "INSERT OR REPLACE INTO case_results(evaluation_id, case_name, status, correct, mean_rel_err, "
                "max_rel_err, baseline_median_ns, kernel_median_ns, speedup, message) VALUES(?,?,?,?,?,?,?,?,?,?)");
    i.bind(1, evaluation).bind(2, c.name).bind(3, std::string(case_status_name(c.status)));
    i.bind(4, int64_t{c.correct()}).bind(5, mean).bind(6, max).bind(7, c.baseline_median_ns);
    i.bind(8, c.kernel_median_ns).bind(9, c.speedup).bind(10, c.message);
    i.step();
  }
  // The attempt's Case and Journal entry, in this same transaction.
  memory::MemoryStore(db_()).record_evaluation(evaluation, &report_json);
  txn.commit();
}

void Workspace::fail_evaluation(int64_t evaluation, const std::string& error) {
  WriteTxn txn(db_());
  Stmt(db_(), std::string("UPDATE evaluations SET status='error', report=?, finished_at=") + kNow + " WHERE id=?")
      .bind(1, escape_invalid_utf8(error)).bind(2, evaluation).step();
  txn.commit();
}

namespace {
const char* kEvalColumns =
    "SELECT e.id, e.run_id, e.kernel_id, e.prev_evaluation_id, e.task, e.device, e.status, e.compiled, e.correct, "
    "e.speedup, k.origin, k.sha256, e.started_at, COALESCE(e.finished_at,''), COALESCE(e.report,''), "
    "COALESCE(e.review,''), COALESCE(e.review_note,''), COALESCE(e.reviewed_at,'') "
    "FROM evaluations e JOIN kernels k ON k.id = e.kernel_id ";
// Listings never read the report blob: only an error row's short text.
const char* kEvalListColumns =
    "SELECT e.id, e.run_id, e.kernel_id, e.prev_evaluation_id, e.task, e.device, e.status, e.compiled, e.correct, "
    "e.speedup, k.origin, k.sha256, e.started_at, COALESCE(e.finished_at,''), "
    "CASE WHEN e.status='error' THEN COALESCE(e.report,'') ELSE '' END "
    "FROM evaluations e JOIN kernels k ON k.id = e.kernel_id ";

EvaluationRow eval_row(const Stmt& s) {
  EvaluationRow r;
  r.id = s.i64(0);
  r.run_id = s.i64(1);
  r.kernel_id = s.i64(2);
  r.prev_evaluation_id = s.opt_i64(3);
  r.task = s.text(4);
  r.device = s.text(5);
  r.status = s.text(6);
  r.compiled = s.opt_bool(7);
  r.correct = s.opt_bool(8);
  r.speedup = s.opt_f64(9);
  r.kernel_origin = s.text(10);
  r.kernel_sha256 = s.text(11);
  r.started_at = s.text(12);
  r.finished_at = s.text(13);
  r.report = s.text(14);
  r.review = s.text(15);
  r.review_note = s.text(16);
  r.reviewed_at = s.text(17);
  return r;
}
}  // namespace

std::vector<EvaluationRow> Workspace::evaluations(const std::optional<std::string>& task, int limit) const {
  Stmt s(db_(), std::string(kEvalListColumns) + (task ? "WHERE e.task=? " : "") + "ORDER BY e.id DESC LIMIT ?");
  int i = 1;
  if (task) s.bind(i++, *task);
  s.bind(i, static_cast<int64_t>(limit));
  std::vector<EvaluationRow> out;
  while (s.step()) out.push_back(eval_row(s));
  return out;
}

std::optional<EvaluationRow> Workspace::evaluation(int64_t id) const {
  Stmt s(db_(), std::string(kEvalColumns) + "WHERE e.id=?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return eval_row(s);
}

BetweenEvaluations Workspace::between_evaluations(const std::string& device, int limit) const {
  Stmt s(db_(), "SELECT e.id, e.task || ' ' || e.task_digest, c.case_name, c.baseline_median_ns FROM "
                "(SELECT id, task, task_digest FROM evaluations WHERE device=? AND status='passed' "
                "ORDER BY id DESC LIMIT ?) e JOIN case_results c ON c.evaluation_id=e.id "
                "WHERE c.correct=1 AND c.baseline_median_ns IS NOT NULL");
  s.bind(1, device).bind(2, static_cast<int64_t>(limit));
  std::vector<BaselineMedian> rows;
  while (s.step()) rows.push_back({s.i64(0), s.text(1), s.text(2), *s.opt_f64(3)});
  return kope::between_evaluations(rows);
}

std::optional<Incumbent> Workspace::incumbent(const std::string& task, const std::string& device) const {
  Stmt s(db_(), "SELECT kernel_id, evaluation_id, speedup, baseline FROM incumbents WHERE task=? AND device=?");
  s.bind(1, task).bind(2, device);
  if (!s.step()) return std::nullopt;
  return Incumbent{task, device, s.i64(0), s.i64(1), *s.opt_f64(2), s.text(3)};
}

void Workspace::set_incumbent(const Incumbent& inc) {
  WriteTxn txn(db_());
  Stmt s(db_(), std::string("INSERT INTO incumbents(task, device, kernel_id, evaluation_id, speedup, updated_at, "
                          "baseline) VALUES(?,?,?,?,?,") + kNow + ",?) ON CONFLICT(task, device) DO UPDATE SET "
                          "kernel_id=excluded.kernel_id, evaluation_id=excluded.evaluation_id, "
                          "speedup=excluded.speedup, updated_at=excluded.updated_at, baseline=excluded.baseline");
  s.bind(1, inc.task).bind(2, inc.device).bind(3, inc.kernel_id).bind(4, inc.evaluation_id).bind(5, std::optional<double>(inc.speedup));
  s.bind(6, inc.baseline);
  s.step();
  txn.commit();
}

}  // namespace kope::workspace

namespace kope::workspace {

void Workspace::request_review(int64_t evaluation, const std::string& reason) {
  WriteTxn txn(db_());
  Stmt(db_(), "UPDATE evaluations SET review='pending', review_note=NULL, reviewed_at=NULL WHERE id=?")
      .bind(1, evaluation).step();
  if (store::changes(db_()) != 1) throw Error("no evaluation " + std::to_string(evaluation) + " to review");
  Stmt(db_(), std::string("INSERT INTO review_log(evaluation_id, decision, note, promoted, decided_at) VALUES(?, "
                        "'pending', ?, 0, ") + kNow + ")")
      .bind(1, evaluation).bind(2, escape_invalid_utf8(reason)).step();
  txn.commit();
}

void Workspace::decide_review(int64_t evaluation, bool approve, const std::string& note,
                              const std::optional<Incumbent>& promote) {
  WriteTxn txn(db_());
  std::string state;
  {
    Stmt s(db_(), "SELECT COALESCE(review,'') FROM evaluations WHERE id=?");
    s.bind(1, evaluation);
    if (!s.step()) throw Error("no evaluation " + std::to_string(evaluation) + " in workspace " + dir_.string());
    state = s.text(0);
  }
  if (state != "pending")
    throw Error("evaluation " + std::to_string(evaluation) + " is not awaiting review (" +
                (state.empty() ? std::string("it was never flagged") : "it was already " + state) + ")");
  const std::string decision = approve ? "approved" : "rejected";
  Stmt(db_(), std::string("UPDATE evaluations SET review=?, review_note=?, reviewed_at=") + kNow + " WHERE id=?")
      .bind(1, decision).bind(2, escape_invalid_utf8(note)).bind(3, evaluation).step();
  Stmt(db_(), std::string("INSERT INTO review_log(evaluation_id, decision, note, promoted, decided_at) VALUES(?,?,?,?,") +
                kNow + ")")
      .bind(1, evaluation).bind(2, decision).bind(3, escape_invalid_utf8(note)).bind(4, int64_t{promote.has_value()}).step();
  if (promote) {
    Stmt s(db_(), std::string("INSERT INTO incumbents(task, device, kernel_id, evaluation_id, speedup, updated_at, "
                            "baseline) VALUES(?,?,?,?,?,") + kNow + ",?) ON CONFLICT(task, device) DO UPDATE SET "
                            "kernel_id=excluded.kernel_id, evaluation_id=excluded.evaluation_id, "
                            "speedup=excluded.speedup, updated_at=excluded.updated_at, baseline=excluded.baseline");
    s.bind(1, promote->task).bind(2, promote->device).bind(3, promote->kernel_id).bind(4, promote->evaluation_id);
    s.bind(5, std::optional<double>(promote->speedup));
    s.bind(6, promote->baseline);
    s.step();
  }
  txn.commit();
}

std::vector<EvaluationRow> Workspace::reviews(const std::optional<std::string>& state, int limit) const {
  Stmt s(db_(), std::string(kEvalColumns) + (state ? "WHERE e.review=? " : "WHERE e.review IS NOT NULL ") +
                  "ORDER BY e.id DESC LIMIT ?");
  int i = 1;
  if (state) s.bind(i++, *state);
  s.bind(i, static_cast<int64_t>(limit));
  std::vector<EvaluationRow> out;
  while (s.step()) out.push_back(eval_row(s));
  return out;
}

std::vector<ReviewLogRow> Workspace::review_log(int64_t evaluation) const {
  Stmt s(db_(), "SELECT decision, note, promoted, decided_at FROM review_log WHERE evaluation_id=? ORDER BY id");
  s.bind(1, evaluation);
  std::vector<ReviewLogRow> out;
  while (s.step()) out.push_back({s.text(0), s.text(1), s.i64(2) != 0, s.text(3)});
  return out;
}

}  // namespace kope::workspace
