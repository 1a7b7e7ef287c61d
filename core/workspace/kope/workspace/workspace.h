// The SQLite workspace: runs, kernel versions, evaluations and their cases, and each task's incumbent.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kope/model/report.h"
#include "kope/model/stats.h"
#include "kope/model/task.h"
#include "kope/store/db.h"

struct sqlite3;

namespace kope::workspace {

inline constexpr int kSchemaVersion = 4;  // 2: reviews, 3: the incumbent's baseline, 4: running evaluations

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
  std::string review;  // "" (none), pending, approved, rejected
  std::string review_note, reviewed_at;
};

struct ReviewLogRow {
  std::string decision;  // pending (flagged by the loop), approved, rejected
  std::string note;
  bool promoted = false;
  std::string at;
};

struct Incumbent {
  std::string task;
  std::string device;
  int64_t kernel_id = 0;
  int64_t evaluation_id = 0;
  double speedup = 0.0;
  // Which baseline `speedup` is against: "naive" (every incumbent stored before the library baseline) or
  // "library" (issue 11), "mixed" when the library ran on some cases only.
  std::string baseline = "naive";
};

struct RunRow {
  int64_t id = 0;
  std::string command, device, status, started_at, finished_at;
};

class Workspace {
 public:
  // Opens or creates `dir`/kope.db and migrates it; `dir` is made absolute. Throws kope::EnvError naming the
  // file and the OS's reason when the disk, a permission or another process's lock stops it, kope::Error for
  // a database of a newer schema.
  static Workspace open(const std::filesystem::path& dir);
  // $KOPE_WORKSPACE, else $XDG_DATA_HOME/kope, else ~/.local/share/kope; absolute.
  static std::filesystem::path default_dir();
  // fs::absolute + lexically_normal: a workspace path is never relative to a folder a process may leave.
  static std::filesystem::path absolute_dir(const std::filesystem::path& dir);

  Workspace(Workspace&&) noexcept = default;
  Workspace& operator=(Workspace&&) noexcept = default;
  ~Workspace() = default;

  const std::filesystem::path& dir() const { return dir_; }
  int schema_version() const;
  // The connection, for stores that keep their tables in the same file (the memory, core/memory/).
  sqlite3* handle() const { return conn_.get(); }

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
  // How far whole evaluations move on `device`, from the baseline medians of its last `limit` passed evaluations
  // (kope/model/stats.h): what the judge's interval, one evaluation's noise, cannot see.
  BetweenEvaluations between_evaluations(const std::string& device, int limit = 400) const;

  std::optional<Incumbent> incumbent(const std::string& task, const std::string& device) const;
  void set_incumbent(const Incumbent& inc);

  // A person's review of a kernel the loop would not promote on its own (faster than the hardware floor).
  // Every request and decision is kept in the review log.
  void request_review(int64_t evaluation, const std::string& reason);
  // Only a pending review can be decided; `promote`, when given, becomes the incumbent in the same transaction.
  // Throws kope::Error when the evaluation does not exist or is not pending.
  void decide_review(int64_t evaluation, bool approve, const std::string& note,
                     const std::optional<Incumbent>& promote);
  // Evaluations under review in `state` (pending, approved, rejected; nullopt: any), newest first.
  std::vector<EvaluationRow> reviews(const std::optional<std::string>& state, int limit) const;
  std::vector<ReviewLogRow> review_log(int64_t evaluation) const;
  // The open connection, for tables kept by other units (the steering log) on this thread.
  sqlite3* connection() const { return conn_.get(); }

 private:
  Workspace() = default;
  void migrate();
  void mark_interrupted();

  std::filesystem::path dir_;
  sqlite3* db_() const { return conn_.get(); }
  store::Connection conn_;
};

}  // namespace kope::workspace
