// The one SQLite layer of kope: connections, statements, transactions that nest, schema migrations, and errors
// that name the database file, what was being done, and what to do (an EnvError for the disk, the OS or a lock).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kope/base/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace kope::store {

// Throws kope::EnvError for failures of the disk, the OS or another process's lock, else kope::Error, naming the
// database file, `what` was being done, SQLite's message (or `detail`) and the OS's reason.
[[noreturn]] void throw_db(sqlite3* db, int code, const std::string& what, const std::string& detail = {});

// The file behind a connection ("?" when none).
std::string db_file(sqlite3* db);

// Runs one or more statements with no result rows; `what` says what they do in an error.
void exec(sqlite3* db, const std::string& sql, const char* what = "running a statement");

// An open database: FULLMUTEX, a 10 s busy timeout, WAL, synchronous=FULL, foreign keys on. Throws kope::EnvError
// naming the file when it cannot be opened.
class Connection {
 public:
  static constexpr int kBusyTimeoutMs = 10000;
  Connection() = default;
  explicit Connection(const std::string& path);
  ~Connection();
  Connection(Connection&& o) noexcept : db_(o.db_) { o.db_ = nullptr; }
  Connection& operator=(Connection&& o) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  sqlite3* get() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

// Brings `PRAGMA user_version` from where it is to migrations.size(), each step in the same transaction as its
// version bump. A newer schema than `migrations` knows is refused, naming the file.
void migrate_user_version(sqlite3* db, const std::vector<const char*>& migrations);

int64_t last_insert_id(sqlite3* db);
int changes(sqlite3* db);

// A prepared statement, reusable with reset(). Borrowed connection.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt(Stmt&& o) noexcept;

  Stmt& bind(int i, int64_t v);
  Stmt& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
  Stmt& bind(int i, bool v) { return bind(i, static_cast<int64_t>(v ? 1 : 0)); }
  Stmt& bind(int i, double v);
  Stmt& bind(int i, const std::string& v);
  Stmt& bind(int i, const char* v) { return bind(i, std::string(v)); }
  Stmt& bind(int i, std::nullopt_t);
  Stmt& bind(int i, const std::optional<int64_t>& v) { return v ? bind(i, *v) : bind(i, std::nullopt); }
  Stmt& bind(int i, const std::optional<double>& v) { return v ? bind(i, *v) : bind(i, std::nullopt); }
  Stmt& bind(int i, const std::optional<std::string>& v) { return v ? bind(i, *v) : bind(i, std::nullopt); }

  // Binds the values to parameters 1, 2, ... in order.
  template <class... T>
  Stmt& bind_all(const T&... v) {
    int i = 1;
    (bind(i++, v), ...);
    return *this;
  }

  // true: a row is ready; false: done. Throws kope::Error with SQLite's message.
  bool step();
  // Runs to completion (for statements without rows).
  void run();
  void reset();

  bool null(int c) const;
  int64_t i64(int c) const;
  double f64(int c) const;
  std::string text(int c) const;
  std::optional<int64_t> opt_i64(int c) const;
  std::optional<double> opt_f64(int c) const;
  std::optional<std::string> opt_text(int c) const;
  std::optional<bool> opt_bool(int c) const { return null(c) ? std::nullopt : std::optional<bool>(i64(c) != 0); }

 private:
  Stmt& check(int rc);
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; inside an open transaction it becomes a SAVEPOINT, so a store's writes join the
// caller's transaction (the memory's Case is written in the same transaction as its evaluation). Rolled back
// when the scope is left by an exception.
class Txn {
 public:
  explicit Txn(sqlite3* db);
  ~Txn();
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  void commit();

 private:
  sqlite3* db_;
  bool nested_ = false;
  bool done_ = false;
  std::string name_;
};

// One snapshot for a series of reads (BEGIN DEFERRED ... COMMIT), so each statement does not take and drop
// the file locks on its own; nothing when a transaction is already open.
class ReadTxn {
 public:
  explicit ReadTxn(sqlite3* db);
  ~ReadTxn();
  ReadTxn(const ReadTxn&) = delete;
  ReadTxn& operator=(const ReadTxn&) = delete;

 private:
  sqlite3* db_;
  bool open_ = false;
};

// Whether the SQLite library this process uses has FTS5 (a probe, not a compile-time guess).
bool fts5_available(sqlite3* db);

// The current UTC time as SQLite's strftime('%Y-%m-%dT%H:%M:%fZ') writes it.
std::string now_utc();

}  // namespace kope::store
