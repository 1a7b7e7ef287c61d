#include "kope/store/db.h"

#include <sqlite3.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>

namespace kope::store {

namespace {

// Failures of the disk, the OS or another process's lock, as opposed to a bug or a bad request.
bool is_environment_failure(int code) {
  switch (code & 0xff) {
    case SQLITE_BUSY: case SQLITE_LOCKED: case SQLITE_FULL: case SQLITE_IOERR: case SQLITE_READONLY:
    case SQLITE_CANTOPEN: case SQLITE_PERM: case SQLITE_NOMEM: case SQLITE_CORRUPT: case SQLITE_NOTADB:
    case SQLITE_PROTOCOL: case SQLITE_NOLFS: case SQLITE_AUTH:
      return true;
    default:
      return false;
  }
}

// What a person can do about a failure of this kind.
std::string remedy(int code) {
  switch (code & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "; another process held it locked for more than " + std::to_string(Connection::kBusyTimeoutMs / 1000) +
             " s: try again when it is done, or use another --workspace";
    case SQLITE_FULL: return "; the disk is full: free space and try again";
    case SQLITE_READONLY: return "; the workspace cannot be written: check its permissions or use another --workspace";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return "; the file is damaged or not a kope workspace: use another --workspace";
    default: return {};
  }
}

}  // namespace

std::string db_file(sqlite3* db) {
  const char* f = db ? sqlite3_db_filename(db, "main") : nullptr;
  return f && *f ? f : "?";
}

void throw_db(sqlite3* db, int code, const std::string& what, const std::string& detail) {
  std::string msg = "database '" + db_file(db) + "': " + what + ": " +
                    (detail.empty() ? std::string(db ? sqlite3_errmsg(db) : sqlite3_errstr(code)) : detail);
  if (int sys = db ? sqlite3_system_errno(db) : 0; sys != 0 && is_environment_failure(code))
    msg += " (" + std::string(std::strerror(sys)) + ")";
  msg += remedy(code);
  if (is_environment_failure(code)) throw EnvError(msg);
  throw Error(msg);
}

void exec(sqlite3* db, const std::string& sql, const char* what) {
  char* msg = nullptr;
  if (int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg); rc != SQLITE_OK) {
    std::string m = msg ? msg : sqlite3_errmsg(db);
    sqlite3_free(msg);
    throw_db(db, rc, what, m);
  }
}

Connection::Connection(const std::string& path) {
  if (int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                               nullptr); rc != SQLITE_OK) {
    std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
    const int sys = db_ ? sqlite3_system_errno(db_) : 0;
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw EnvError("database '" + path + "': cannot open: " + m +
                   (sys ? " (" + std::string(std::strerror(sys)) + ")" : std::string()));
  }
  try {
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    exec(db_, "PRAGMA journal_mode=WAL", "setting the journal mode");
    exec(db_, "PRAGMA synchronous=FULL", "setting synchronous writes");
    exec(db_, "PRAGMA foreign_keys=ON", "turning on foreign keys");
  } catch (...) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw;
  }
}

Connection::~Connection() {
  if (db_) sqlite3_close_v2(db_);
}

Connection& Connection::operator=(Connection&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close_v2(db_);
    db_ = o.db_;
    o.db_ = nullptr;
  }
  return *this;
}

void migrate_user_version(sqlite3* db, const std::vector<const char*>& migrations) {
  const int known = static_cast<int>(migrations.size());
  Txn txn(db);
  Stmt s(db, "PRAGMA user_version");
  s.step();
  int v = static_cast<int>(s.i64(0));
  s.reset();
  if (v > known)
    throw Error("database '" + db_file(db) + "': schema version " + std::to_string(v) +
                " is newer than this kope knows (" + std::to_string(known) + "); use a newer kope or another workspace");
  for (; v < known; ++v) {
    exec(db, migrations[static_cast<std::size_t>(v)], "migrating the schema");
    exec(db, "PRAGMA user_version=" + std::to_string(v + 1), "migrating the schema");
  }
  txn.commit();
}

int64_t last_insert_id(sqlite3* db) { return sqlite3_last_insert_rowid(db); }
int changes(sqlite3* db) { return sqlite3_changes(db); }

Stmt::Stmt(sqlite3* db, const std::string& sql) : db_(db) {
  if (int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr); rc != SQLITE_OK)
    throw_db(db, rc, "cannot prepare \"" + sql.substr(0, 80) + "\"");
}
Stmt::~Stmt() { sqlite3_finalize(st_); }
Stmt::Stmt(Stmt&& o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }

Stmt& Stmt::check(int rc) {
  if (rc != SQLITE_OK) throw_db(db_, rc, "cannot bind a value");
  return *this;
}
Stmt& Stmt::bind(int i, int64_t v) { return check(sqlite3_bind_int64(st_, i, v)); }
Stmt& Stmt::bind(int i, double v) { return check(sqlite3_bind_double(st_, i, v)); }
Stmt& Stmt::bind(int i, const std::string& v) {
  return check(sqlite3_bind_text64(st_, i, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
}
Stmt& Stmt::bind(int i, std::nullopt_t) { return check(sqlite3_bind_null(st_, i)); }

bool Stmt::step() {
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string m = sqlite3_errmsg(db_);
  const char* sql = sqlite3_sql(st_);
  const bool read = sql && std::string(sql).rfind("SELECT", 0) == 0;
  sqlite3_reset(st_);
  throw_db(db_, rc, read ? "cannot read" : "cannot write", m);
}
void Stmt::run() {
  while (step()) {
  }
}
void Stmt::reset() {
  sqlite3_reset(st_);
  sqlite3_clear_bindings(st_);
}

bool Stmt::null(int c) const { return sqlite3_column_type(st_, c) == SQLITE_NULL; }
int64_t Stmt::i64(int c) const { return sqlite3_column_int64(st_, c); }
double Stmt::f64(int c) const { return sqlite3_column_double(st_, c); }
std::string Stmt::text(int c) const {
  auto p = sqlite3_column_text(st_, c);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(st_, c)))
           : std::string();
}
std::optional<int64_t> Stmt::opt_i64(int c) const { return null(c) ? std::nullopt : std::optional<int64_t>(i64(c)); }
std::optional<double> Stmt::opt_f64(int c) const { return null(c) ? std::nullopt : std::optional<double>(f64(c)); }
std::optional<std::string> Stmt::opt_text(int c) const {
  return null(c) ? std::nullopt : std::optional<std::string>(text(c));
}

Txn::Txn(sqlite3* db) : db_(db) {
  static std::atomic<unsigned> counter{0};
  nested_ = sqlite3_get_autocommit(db) == 0;
  if (nested_) {
    name_ = "kope_sp" + std::to_string(counter++);
    exec(db, "SAVEPOINT " + name_, "opening a transaction");
  } else {
    exec(db, "BEGIN IMMEDIATE", "opening a transaction");
  }
}
Txn::~Txn() {
  if (done_) return;
  if (nested_) {
    sqlite3_exec(db_, ("ROLLBACK TO " + name_ + "; RELEASE " + name_).c_str(), nullptr, nullptr, nullptr);
  } else {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
}
void Txn::commit() {
  exec(db_, nested_ ? "RELEASE " + name_ : std::string("COMMIT"), "committing");
  done_ = true;
}

ReadTxn::ReadTxn(sqlite3* db) : db_(db) {
  if (sqlite3_get_autocommit(db) != 0) {
    exec(db, "BEGIN DEFERRED", "opening a read transaction");
    open_ = true;
  }
}
ReadTxn::~ReadTxn() {
  if (open_) sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
}

bool fts5_available(sqlite3* db) {
  // compile_options lists ENABLE_FTS5 when it is built in; a loadable extension would not show there, so
  // the probe creates a temporary table as the final word.
  char* msg = nullptr;
  int rc = sqlite3_exec(db, "CREATE VIRTUAL TABLE IF NOT EXISTS temp.kope_fts5_probe USING fts5(x);"
                            "DROP TABLE IF EXISTS temp.kope_fts5_probe;", nullptr, nullptr, &msg);
  sqlite3_free(msg);
  return rc == SQLITE_OK;
}

std::string now_utc() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

}  // namespace kope::store
