// The SQLite workspace: runs, kernel versions, evaluations and their cases, and each task's incumbent.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kope/evaluator.h"
#include "kope/task.h"

struct sqlite3;

namespace kope {

inline constexpr int kSchemaVersion = 1;

struct EvaluationRow {
  int64_t id = 0;
  int64_t run_id = 0;
  int64_t kernel_id = 0;
  std::optional<int64_t> prev_evaluation_id;
  std::string task;
  std::string device;
  std::string status;  // running, interrupted, error, or the report's status
  std::optional<bool> compiled, correct;
  std::optional<double> speedup;
  std::string kernel_origin;
  std::string kernel_sha256;
  std::string started_at, finished_at;
  std::string report;  // the full JSON report, or the error text for status "error"
};

struct Incumbent {
  std::string task;
  std::string device;
  int64_t kernel_id = 0;
  int64_t evaluation_id = 0;
  double speedup = 0.0;
};

struct RunRow {
  int64_t id = 0;
  std::string command, device, status, started_at, finished_at;
};

class Workspace {
 public:
  // Opens or creates `dir`/kope.db and migrates it. Throws kope::Error naming the file.
  static Workspace open(const std::filesystem::path& dir);
  // $KOPE_WORKSPACE, else $XDG_DATA_HOME/kope, else ~/.local/share/kope.
  static std::filesystem::path default_dir();

  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;
  ~Workspace();

  const std::filesystem::path& dir() const { return dir_; }
  int schema_version() const;
  // The connection, for stores that keep their tables in the same file (the memory, core/memory/).
  sqlite3* handle() const { return db_; }

  int64_t begin_run(const std::string& command, const std::string& device);
  void finish_run(int64_t run, const std::string& status);
  std::vector<RunRow> runs(int limit) const;

  // The same source for the same task is one kernel version.
  int64_t add_kernel(const std::string& task, const std::string& source, const std::string& origin,
                     const std::string& thought);
  std::optional<std::string> kernel_source(int64_t kernel) const;

  // Recorded as "running" before any work starts, so a crash leaves a trace.
  int64_t begin_evaluation(int64_t run, int64_t kernel, const Task& task, const std::string& device,
                           std::optional<int64_t> prev_evaluation);
  void finish_evaluation(int64_t evaluation, const EvalReport& report);
  void fail_evaluation(int64_t evaluation, const std::string& error);
  // A listing: `report` holds only the error text of "error" rows, never a full report (evaluation() loads it).
  std::vector<EvaluationRow> evaluations(const std::optional<std::string>& task, int limit) const;
  std::optional<EvaluationRow> evaluation(int64_t id) const;

  std::optional<Incumbent> incumbent(const std::string& task, const std::string& device) const;
  void set_incumbent(const Incumbent& inc);

 private:
  Workspace() = default;
  void migrate();
  void mark_interrupted();
  void exec(const char* sql);

  std::filesystem::path dir_;
  sqlite3* db_ = nullptr;
};

}  // namespace kope
