#include "kope/store/db.h"

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <ctime>

namespace kope::store {

namespace {
[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw Error("database: " + what + ": " + (db ? sqlite3_errmsg(db) : "no connection"));
}
}  // namespace

void exec(sqlite3* db, const std::string& sql, const char* what) {
  char* msg = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string m = msg ? msg : sqlite3_errmsg(db);
    sqlite3_free(msg);
    throw Error(std::string(what) + ": " + m);
  }
}

int64_t last_insert_id(sqlite3* db) { return sqlite3_last_insert_rowid(db); }
int changes(sqlite3* db) { return sqlite3_changes(db); }

Stmt::Stmt(sqlite3* db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK)
    fail(db, "cannot prepare \"" + sql.substr(0, 80) + "\"");
}
Stmt::~Stmt() { sqlite3_finalize(st_); }
Stmt::Stmt(Stmt&& o) noexcept : db_(o.db_), st_(o.st_) { o.st_ = nullptr; }

Stmt& Stmt::check(int rc) {
  if (rc != SQLITE_OK) fail(db_, "cannot bind");
  return *this;
}
Stmt& Stmt::bind(int i, int64_t v) { return check(sqlite3_bind_int64(st_, i, v)); }
Stmt& Stmt::bind(int i, double v) { return check(sqlite3_bind_double(st_, i, v)); }
Stmt& Stmt::bind(int i, const std::string& v) {
  return check(sqlite3_bind_text(st_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
}
Stmt& Stmt::bind(int i, std::nullopt_t) { return check(sqlite3_bind_null(st_, i)); }

bool Stmt::step() {
  int rc = sqlite3_step(st_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  std::string m = sqlite3_errmsg(db_);
  sqlite3_reset(st_);
  throw Error("database: " + m);
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
    exec(db, "SAVEPOINT " + name_);
  } else {
    exec(db, "BEGIN IMMEDIATE");
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
  exec(db_, nested_ ? "RELEASE " + name_ : std::string("COMMIT"));
  done_ = true;
}

ReadTxn::ReadTxn(sqlite3* db) : db_(db) {
  if (sqlite3_get_autocommit(db) != 0) {
    exec(db, "BEGIN DEFERRED");
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
