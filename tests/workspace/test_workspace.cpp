// kope::workspace::Workspace on a scratch folder: creation and migration, kernels, evaluations and their cases, incumbents,
// runs, crash recovery, and the errors for a newer schema or a folder that cannot be made.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/model/report.h"
#include "kope/base/sha256.h"
#include "kope/model/task.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::workspace;

namespace kope {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::TempDir;

// A direct sqlite3 connection to a workspace's database, for looking behind the API.
class RawDb {
 public:
  explicit RawDb(const fs::path& file) {
    if (sqlite3_open_v2(file.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      std::string m = db_ ? sqlite3_errmsg(db_) : "out of memory";
      sqlite3_close(db_);
      db_ = nullptr;
      throw std::runtime_error("cannot open " + file.string() + ": " + m);
    }
    sqlite3_busy_timeout(db_, 5000);
  }
  ~RawDb() { sqlite3_close(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  // Every row of `sql`, each column as text ("NULL" for a null).
  std::vector<std::vector<std::string>> rows(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error("prepare '" + sql + "': " + sqlite3_errmsg(db_));
    std::vector<std::vector<std::string>> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        auto p = sqlite3_column_text(st, c);
        row.push_back(sqlite3_column_type(st, c) == SQLITE_NULL ? "NULL" : reinterpret_cast<const char*>(p));
      }
      out.push_back(std::move(row));
    }
    std::string err = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db_);
    sqlite3_finalize(st);
    if (!err.empty()) throw std::runtime_error("step '" + sql + "': " + err);
    return out;
  }
  std::string scalar(const std::string& sql) {
    auto r = rows(sql);
    if (r.empty() || r[0].empty()) throw std::runtime_error("no value from '" + sql + "'");
    return r[0][0];
  }
  double real(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      throw std::runtime_error("prepare '" + sql + "': " + sqlite3_errmsg(db_));
    if (sqlite3_step(st) != SQLITE_ROW) {
      sqlite3_finalize(st);
      throw std::runtime_error("no value from '" + sql + "'");
    }
    double v = sqlite3_column_double(st, 0);
    sqlite3_finalize(st);
    return v;
  }
  void exec(const std::string& sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
      std::string m = msg ? msg : "?";
      sqlite3_free(msg);
      throw std::runtime_error("exec '" + sql + "': " + m);
    }
  }

 private:
  sqlite3* db_ = nullptr;
};

fs::path db_file(const TempDir& t) { return t.path() / "kope.db"; }

OutputCheck check(const std::string& name, double mean, double max) {
  OutputCheck o;
  o.name = name;
  o.mean_rel = mean;
  o.max_rel = max;
  o.threshold = 1e-5;
  o.ok = true;
  return o;
}

CaseResult passed_case(const std::string& name, double base_ns, double kernel_ns) {
  CaseResult c;
  c.name = name;
  c.status = CaseStatus::Passed;
  c.message = "ok " + name;
  c.baseline_median_ns = base_ns;
  c.kernel_median_ns = kernel_ns;
  c.speedup = base_ns / kernel_ns;
  c.baseline_ns = {base_ns, base_ns};
  c.kernel_ns = {kernel_ns, kernel_ns};
  return c;
}

// Compiled, two passing cases with speedups 2 and 8 (geometric mean 4).
EvalReport passing_report(const Task& task) {
  EvalReport rep;
  rep.task = task.name;
  rep.task_digest = task.digest;
  rep.kernel_name = "cand.cpp";
  rep.kernel_sha256 = "abc";
  rep.compiled = true;
  rep.compile.ok = true;
  CaseResult a = passed_case("one", 200.0, 100.0);
  a.outputs = {check("y", 1e-8, 3e-8), check("z", 2e-8, 1e-8)};
  CaseResult b = passed_case("odd", 800.0, 100.0);
  b.outputs = {check("y", 5e-9, 7e-9)};
  rep.cases = {a, b};
  return rep;
}

struct Fixture {
  TempDir tmp;
  Workspace ws = Workspace::open(tmp.path());
  Task task = test::affine_task();
  int64_t run = ws.begin_run("kope test", "cpu");
  int64_t kernel = ws.add_kernel(task.name, "// kernel one\n", "seed", "first try");
};

TEST(Workspace, OpenCreatesAWalDatabaseAtTheCurrentSchema) {
  TempDir tmp;
  const fs::path dir = tmp / "nested" / "ws";
  Workspace ws = Workspace::open(dir);
  EXPECT_EQ(ws.dir(), dir);
  EXPECT_TRUE(fs::is_regular_file(dir / "kope.db"));
  EXPECT_EQ(ws.schema_version(), kSchemaVersion);

  RawDb raw(dir / "kope.db");
  EXPECT_EQ(raw.scalar("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(kSchemaVersion));
  // Every open looks for evaluations cut short: through the partial index, not a scan of every report.
  std::string plan;
  for (const auto& r : raw.rows("EXPLAIN QUERY PLAN SELECT 1 FROM evaluations e JOIN runs r ON r.id = e.run_id "
                                "WHERE e.status='running' AND r.status <> 'running' LIMIT 1"))
    plan += r.back() + "\n";
  EXPECT_NE(plan.find("evaluations_running"), std::string::npos) << plan;
  auto tables = raw.rows("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
  std::vector<std::string> names;
  for (auto& r : tables)
    if (r[0].rfind("memory_", 0) != 0 && r[0] != "attempt_context") names.push_back(r[0]);  // the memory's own
  EXPECT_EQ(names, (std::vector<std::string>{"case_results", "evaluations", "incumbents", "kernels", "review_log", "runs"}));
}

TEST(Workspace, ReopenKeepsDataAndSchema) {
  TempDir tmp;
  int64_t kernel = 0, run = 0;
  {
    Workspace ws = Workspace::open(tmp.path());
    run = ws.begin_run("first", "cpu");
    kernel = ws.add_kernel("affine", "int k;\n", "seed", "");
    ws.finish_run(run, "done");
  }
  Workspace ws = Workspace::open(tmp.path());
  EXPECT_EQ(ws.schema_version(), kSchemaVersion);
  EXPECT_EQ(ws.kernel_source(kernel), std::optional<std::string>("int k;\n"));
  auto runs = ws.runs(10);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, run);
  EXPECT_EQ(runs[0].command, "first");
  EXPECT_EQ(runs[0].status, "done");
  // Opening again ran no migration twice: still one row, same kernel id for the same source.
  EXPECT_EQ(ws.add_kernel("affine", "int k;\n", "again", ""), kernel);
}

TEST(Workspace, MovedWorkspaceStillWorks) {
  TempDir tmp;
  Workspace a = Workspace::open(tmp.path());
  Workspace b = std::move(a);
  int64_t k = b.add_kernel("t", "src", "o", "");
  EXPECT_EQ(b.kernel_source(k), std::optional<std::string>("src"));
  Workspace c = Workspace::open(tmp / "other");
  c = std::move(b);
  EXPECT_EQ(c.dir(), tmp.path());
  EXPECT_EQ(c.kernel_source(k), std::optional<std::string>("src"));
}

TEST(Workspace, AddKernelIsIdempotentPerTaskAndSource) {
  TempDir tmp;
  Workspace ws = Workspace::open(tmp.path());
  const int64_t a = ws.add_kernel("affine", "source A", "seed", "why A");
  EXPECT_GT(a, 0);
  EXPECT_EQ(ws.add_kernel("affine", "source A", "other origin", "other thought"), a);
  const int64_t b = ws.add_kernel("affine", "source B", "seed", "");
  EXPECT_NE(b, a);
  const int64_t c = ws.add_kernel("softmax", "source A", "seed", "");
  EXPECT_NE(c, a);
  EXPECT_NE(c, b);
  EXPECT_EQ(ws.add_kernel("softmax", "source A", "seed", ""), c);

  RawDb raw(db_file(tmp));
  EXPECT_EQ(raw.scalar("SELECT COUNT(*) FROM kernels"), "3");
  // The first insert wins: a repeat does not overwrite origin or thought.
  EXPECT_EQ(raw.scalar("SELECT origin || '|' || thought FROM kernels WHERE id=" + std::to_string(a)), "seed|why A");
  EXPECT_EQ(raw.scalar("SELECT sha256 FROM kernels WHERE id=" + std::to_string(a)), sha256_hex("source A"));
}

TEST(Workspace, KernelSourceRoundTrips) {
  TempDir tmp;
  Workspace ws = Workspace::open(tmp.path());
  const std::string src =
      "#include \"kope_kernel.h\"\n// quotes ' \" and unicode \xc3\xa9\n\tint kope_kernel(const kope_args* a) { return 0; }\n";
  const int64_t id = ws.add_kernel("affine", src, "seed", "");
  EXPECT_EQ(ws.kernel_source(id), std::optional<std::string>(src));
  EXPECT_EQ(ws.kernel_source(id + 1000), std::nullopt);
}

TEST(Workspace, BeginEvaluationRecordsRunningBeforeFinish) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  auto row = f.ws.evaluation(e);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->id, e);
  EXPECT_EQ(row->run_id, f.run);
  EXPECT_EQ(row->kernel_id, f.kernel);
  EXPECT_EQ(row->prev_evaluation_id, std::nullopt);
  EXPECT_EQ(row->task, "affine");
  EXPECT_EQ(row->device, "cpu");
  EXPECT_EQ(row->status, "running");
  EXPECT_EQ(row->compiled, std::nullopt);
  EXPECT_EQ(row->correct, std::nullopt);
  EXPECT_EQ(row->speedup, std::nullopt);
  EXPECT_EQ(row->kernel_origin, "seed");
  EXPECT_EQ(row->kernel_sha256, sha256_hex("// kernel one\n"));
  EXPECT_FALSE(row->started_at.empty());
  EXPECT_EQ(row->finished_at, "");
  EXPECT_EQ(row->report, "");

  RawDb raw(db_file(f.tmp));
  EXPECT_EQ(raw.scalar("SELECT task_digest FROM evaluations WHERE id=" + std::to_string(e)), f.task.digest);

  const int64_t e2 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", e);
  EXPECT_EQ(f.ws.evaluation(e2)->prev_evaluation_id, std::optional<int64_t>(e));
  EXPECT_EQ(f.ws.evaluation(e2 + 100), std::nullopt);
}

TEST(Workspace, EvaluationsMustReferToRealRunsAndKernels) {
  Fixture f;
  EXPECT_THROW(f.ws.begin_evaluation(f.run + 100, f.kernel, f.task, "cpu", std::nullopt), Error);
  EXPECT_THROW(f.ws.begin_evaluation(f.run, f.kernel + 100, f.task, "cpu", std::nullopt), Error);
  EXPECT_TRUE(f.ws.evaluations(std::nullopt, 10).empty());
}

TEST(Workspace, FinishEvaluationStoresAPassingReport) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  f.ws.finish_evaluation(e, passing_report(f.task));

  auto row = f.ws.evaluation(e);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "passed");
  EXPECT_EQ(row->compiled, std::optional<bool>(true));
  EXPECT_EQ(row->correct, std::optional<bool>(true));
  ASSERT_TRUE(row->speedup);
  EXPECT_NEAR(*row->speedup, 4.0, 1e-9);
  EXPECT_FALSE(row->finished_at.empty());
  EXPECT_GE(row->finished_at, row->started_at);

  json j = json::parse(row->report);
  EXPECT_EQ(j["task"], "affine");
  EXPECT_EQ(j["task_digest"], f.task.digest);
  EXPECT_EQ(j["status"], "passed");
  EXPECT_EQ(j["compiled"], true);
  EXPECT_EQ(j["correct"], true);
  EXPECT_NEAR(j["speedup"].get<double>(), 4.0, 1e-9);
  ASSERT_EQ(j["cases"].size(), 2u);
  EXPECT_EQ(j["cases"][0]["name"], "one");
  EXPECT_EQ(j["cases"][0]["status"], "passed");
  EXPECT_NEAR(j["cases"][0]["speedup"].get<double>(), 2.0, 1e-12);
  EXPECT_EQ(j["cases"][0]["outputs"].size(), 2u);
  EXPECT_EQ(j["cases"][1]["name"], "odd");
  EXPECT_NEAR(j["cases"][1]["speedup"].get<double>(), 8.0, 1e-12);

  RawDb raw(db_file(f.tmp));
  auto rows = raw.rows("SELECT case_name, status, correct, message FROM case_results WHERE evaluation_id=" +
                       std::to_string(e) + " ORDER BY case_name");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"odd", "passed", "1", "ok odd"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"one", "passed", "1", "ok one"}));
  const std::string one = " FROM case_results WHERE evaluation_id=" + std::to_string(e) + " AND case_name='one'";
  // The worst output of the case: mean max(1e-8, 2e-8), max max(3e-8, 1e-8).
  EXPECT_DOUBLE_EQ(raw.real("SELECT mean_rel_err" + one), 2e-8);
  EXPECT_DOUBLE_EQ(raw.real("SELECT max_rel_err" + one), 3e-8);
  EXPECT_DOUBLE_EQ(raw.real("SELECT baseline_median_ns" + one), 200.0);
  EXPECT_DOUBLE_EQ(raw.real("SELECT kernel_median_ns" + one), 100.0);
  EXPECT_DOUBLE_EQ(raw.real("SELECT speedup" + one), 2.0);
  EXPECT_DOUBLE_EQ(raw.real("SELECT speedup FROM case_results WHERE evaluation_id=" + std::to_string(e) +
                            " AND case_name='odd'"),
                   8.0);
}

TEST(Workspace, AWrongCaseMakesTheEvaluationWrong) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  EvalReport rep = passing_report(f.task);
  rep.cases[1].status = CaseStatus::Wrong;
  rep.cases[1].message = "y[3]: expected 7, got 8";
  rep.cases[1].outputs[0].ok = false;
  rep.cases[1].outputs[0].mean_rel = 0.5;
  rep.cases[1].outputs[0].max_rel = 0.9;
  f.ws.finish_evaluation(e, rep);

  auto row = f.ws.evaluation(e);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "wrong");
  EXPECT_EQ(row->compiled, std::optional<bool>(true));
  EXPECT_EQ(row->correct, std::optional<bool>(false));
  EXPECT_EQ(row->speedup, std::nullopt);
  json j = json::parse(row->report);
  EXPECT_EQ(j["status"], "wrong");
  EXPECT_EQ(j["correct"], false);
  EXPECT_TRUE(j["speedup"].is_null());

  RawDb raw(db_file(f.tmp));
  auto rows = raw.rows("SELECT status, correct, message FROM case_results WHERE evaluation_id=" + std::to_string(e) +
                       " AND case_name='odd'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"wrong", "0", "y[3]: expected 7, got 8"}));
  EXPECT_DOUBLE_EQ(raw.real("SELECT max_rel_err FROM case_results WHERE evaluation_id=" + std::to_string(e) +
                            " AND case_name='odd'"),
                   0.9);
}

TEST(Workspace, ACompileErrorIsStoredWithoutCases) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  EvalReport rep;
  rep.task = f.task.name;
  rep.compiled = false;
  rep.compile.ok = false;
  rep.compile.error = "error: expected ';'";
  f.ws.finish_evaluation(e, rep);
  auto row = f.ws.evaluation(e);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "compile_error");
  EXPECT_EQ(row->compiled, std::optional<bool>(false));
  EXPECT_EQ(row->correct, std::optional<bool>(false));
  EXPECT_EQ(row->speedup, std::nullopt);
  RawDb raw(db_file(f.tmp));
  EXPECT_EQ(raw.scalar("SELECT COUNT(*) FROM case_results"), "0");
}

TEST(Workspace, FailEvaluationStoresTheError) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  f.ws.fail_evaluation(e, "the reference crashed: signal 11 (SIGSEGV)");
  auto row = f.ws.evaluation(e);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "error");
  EXPECT_EQ(row->report, "the reference crashed: signal 11 (SIGSEGV)");
  EXPECT_FALSE(row->finished_at.empty());
  EXPECT_EQ(row->correct, std::nullopt);
  EXPECT_EQ(row->speedup, std::nullopt);
}

TEST(Workspace, EvaluationsAreNewestFirstFilteredAndLimited) {
  Fixture f;
  Task other = f.task;
  other.name = "softmax";
  const int64_t k2 = f.ws.add_kernel("softmax", "// softmax\n", "seed", "");
  const int64_t a1 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  const int64_t s1 = f.ws.begin_evaluation(f.run, k2, other, "cpu", std::nullopt);
  const int64_t a2 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", a1);
  const int64_t a3 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", a2);

  auto ids = [](const std::vector<EvaluationRow>& rows) {
    std::vector<int64_t> out;
    for (const auto& r : rows) out.push_back(r.id);
    return out;
  };
  EXPECT_EQ(ids(f.ws.evaluations(std::nullopt, 10)), (std::vector<int64_t>{a3, a2, s1, a1}));
  EXPECT_EQ(ids(f.ws.evaluations(std::string("affine"), 10)), (std::vector<int64_t>{a3, a2, a1}));
  EXPECT_EQ(ids(f.ws.evaluations(std::string("affine"), 2)), (std::vector<int64_t>{a3, a2}));
  EXPECT_EQ(ids(f.ws.evaluations(std::string("softmax"), 10)), (std::vector<int64_t>{s1}));
  EXPECT_EQ(f.ws.evaluations(std::string("softmax"), 10)[0].task, "softmax");
  EXPECT_TRUE(f.ws.evaluations(std::string("nope"), 10).empty());
  EXPECT_EQ(ids(f.ws.evaluations(std::nullopt, 1)), (std::vector<int64_t>{a3}));
}

TEST(Workspace, IncumbentIsInsertedThenUpdated) {
  Fixture f;
  EXPECT_EQ(f.ws.incumbent("affine", "cpu"), std::nullopt);
  const int64_t e1 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  f.ws.set_incumbent({"affine", "cpu", f.kernel, e1, 1.5});
  auto inc = f.ws.incumbent("affine", "cpu");
  ASSERT_TRUE(inc);
  EXPECT_EQ(inc->task, "affine");
  EXPECT_EQ(inc->device, "cpu");
  EXPECT_EQ(inc->kernel_id, f.kernel);
  EXPECT_EQ(inc->evaluation_id, e1);
  EXPECT_DOUBLE_EQ(inc->speedup, 1.5);
  EXPECT_EQ(inc->baseline, "naive");  // the default, as for every incumbent stored before issue 11

  const int64_t k2 = f.ws.add_kernel("affine", "// kernel two\n", "edit", "");
  const int64_t e2 = f.ws.begin_evaluation(f.run, k2, f.task, "cpu", e1);
  f.ws.set_incumbent({"affine", "cpu", k2, e2, 3.25, "library"});
  inc = f.ws.incumbent("affine", "cpu");
  ASSERT_TRUE(inc);
  EXPECT_EQ(inc->baseline, "library");
  EXPECT_EQ(inc->kernel_id, k2);
  EXPECT_EQ(inc->evaluation_id, e2);
  EXPECT_DOUBLE_EQ(inc->speedup, 3.25);

  // Per device: another device has its own, and the first is untouched.
  EXPECT_EQ(f.ws.incumbent("affine", "gpu"), std::nullopt);
  f.ws.set_incumbent({"affine", "gpu", f.kernel, e1, 0.5});
  EXPECT_DOUBLE_EQ(f.ws.incumbent("affine", "gpu")->speedup, 0.5);
  EXPECT_DOUBLE_EQ(f.ws.incumbent("affine", "cpu")->speedup, 3.25);

  RawDb raw(db_file(f.tmp));
  EXPECT_EQ(raw.scalar("SELECT COUNT(*) FROM incumbents"), "2");
}

TEST(Workspace, RunsAreListedNewestFirst) {
  TempDir tmp;
  Workspace ws = Workspace::open(tmp.path());
  EXPECT_TRUE(ws.runs(10).empty());
  const int64_t r1 = ws.begin_run("kope eval a.cpp", "cpu");
  const int64_t r2 = ws.begin_run("kope loop", "cpu");
  ws.finish_run(r1, "done");
  auto runs = ws.runs(10);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].id, r2);
  EXPECT_EQ(runs[0].command, "kope loop");
  EXPECT_EQ(runs[0].status, "running");
  EXPECT_EQ(runs[0].finished_at, "");
  EXPECT_EQ(runs[1].id, r1);
  EXPECT_EQ(runs[1].command, "kope eval a.cpp");
  EXPECT_EQ(runs[1].device, "cpu");
  EXPECT_EQ(runs[1].status, "done");
  EXPECT_FALSE(runs[1].started_at.empty());
  EXPECT_FALSE(runs[1].finished_at.empty());
  ASSERT_EQ(ws.runs(1).size(), 1u);
  EXPECT_EQ(ws.runs(1)[0].id, r2);
}

TEST(Workspace, RunOfADeadProcessIsMarkedInterruptedOnOpen) {
  TempDir tmp;
  const Task task = test::affine_task();
  int64_t mine_run = 0, mine_eval = 0;
  {
    Workspace ws = Workspace::open(tmp.path());
    mine_run = ws.begin_run("still alive", "cpu");
    const int64_t k = ws.add_kernel(task.name, "// live\n", "seed", "");
    mine_eval = ws.begin_evaluation(mine_run, k, task, "cpu", std::nullopt);
  }

  // A child opens the workspace, starts a run and an evaluation, and dies without finishing either.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {
      Workspace ws = Workspace::open(tmp.path());
      const int64_t run = ws.begin_run("doomed", "cpu");
      const int64_t k = ws.add_kernel(task.name, "// doomed\n", "seed", "");
      const int64_t e = ws.begin_evaluation(run, k, task, "cpu", std::nullopt);
      const int64_t done = ws.begin_evaluation(run, k, task, "cpu", e);
      ws.fail_evaluation(done, "finished before the crash");
      _exit(0);
    } catch (...) {
      _exit(3);
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << "the child could not use the workspace";

  Workspace ws = Workspace::open(tmp.path());
  auto runs = ws.runs(10);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].command, "doomed");
  EXPECT_EQ(runs[0].status, "interrupted");
  EXPECT_FALSE(runs[0].finished_at.empty());
  // The run of this (live) process is left alone.
  EXPECT_EQ(runs[1].id, mine_run);
  EXPECT_EQ(runs[1].status, "running");

  auto evals = ws.evaluations(std::nullopt, 10);
  ASSERT_EQ(evals.size(), 3u);
  EXPECT_EQ(evals[0].run_id, runs[0].id);
  EXPECT_EQ(evals[0].status, "error") << "a finished evaluation of the dead run must keep its status";
  EXPECT_EQ(evals[1].run_id, runs[0].id);
  EXPECT_EQ(evals[1].status, "interrupted");
  EXPECT_FALSE(evals[1].finished_at.empty());
  EXPECT_EQ(evals[2].id, mine_eval);
  EXPECT_EQ(evals[2].status, "running");
}

TEST(Workspace, NewerSchemaIsRefused) {
  TempDir tmp;
  { Workspace ws = Workspace::open(tmp.path()); }
  {
    RawDb raw(db_file(tmp));
    raw.exec("PRAGMA user_version=" + std::to_string(kSchemaVersion + 5));
  }
  try {
    Workspace ws = Workspace::open(tmp.path());
    FAIL() << "opened a database with a newer schema";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(db_file(tmp).string()), std::string::npos) << m;
    EXPECT_NE(m.find("newer"), std::string::npos) << m;
    EXPECT_NE(m.find(std::to_string(kSchemaVersion + 5)), std::string::npos) << m;
  }
  // Refusing did not touch the version.
  RawDb raw(db_file(tmp));
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(kSchemaVersion + 5));
}

TEST(Workspace, UncreatableFolderThrowsNamingIt) {
  TempDir tmp;
  test::write_text(tmp / "plain-file", "not a folder");
  const fs::path dir = tmp / "plain-file" / "ws";
  try {
    Workspace ws = Workspace::open(dir);
    FAIL() << "opened a workspace under a regular file";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.string()), std::string::npos) << e.what();
  }
}

TEST(Workspace, CorruptDatabaseThrowsNamingTheFile) {
  TempDir tmp;
  test::write_text(db_file(tmp), std::string(4096, 'g'));
  try {
    Workspace ws = Workspace::open(tmp.path());
    FAIL() << "opened a file that is not a database";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(db_file(tmp).string()), std::string::npos) << e.what();
  }
}

TEST(Workspace, TwoConnectionsShareOneDatabase) {
  TempDir tmp;
  Workspace a = Workspace::open(tmp.path());
  Workspace b = Workspace::open(tmp.path());
  const int64_t ka = a.add_kernel("affine", "shared", "a", "");
  EXPECT_EQ(b.add_kernel("affine", "shared", "b", ""), ka);
  EXPECT_EQ(b.kernel_source(ka), std::optional<std::string>("shared"));
  const int64_t rb = b.begin_run("from b", "cpu");
  ASSERT_FALSE(a.runs(10).empty());
  EXPECT_EQ(a.runs(10)[0].id, rb);
}

TEST(Workspace, DefaultDirFollowsTheEnvironment) {
  auto saved = [](const char* n) -> std::optional<std::string> {
    const char* v = std::getenv(n);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  auto restore = [](const char* n, const std::optional<std::string>& v) {
    if (v) setenv(n, v->c_str(), 1);
    else unsetenv(n);
  };
  const auto ws = saved("KOPE_WORKSPACE"), xdg = saved("XDG_DATA_HOME"), home = saved("HOME");

  setenv("KOPE_WORKSPACE", "/tmp/kope-ws-test", 1);
  setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
  setenv("HOME", "/tmp/home-test", 1);
  EXPECT_EQ(Workspace::default_dir(), fs::path("/tmp/kope-ws-test"));
  unsetenv("KOPE_WORKSPACE");
  EXPECT_EQ(Workspace::default_dir(), fs::path("/tmp/xdg-test/kope"));
  setenv("XDG_DATA_HOME", "", 1);
  EXPECT_EQ(Workspace::default_dir(), fs::path("/tmp/home-test/.local/share/kope"));

  // A relative path is made absolute against the current folder, so a later chdir cannot move it.
  setenv("KOPE_WORKSPACE", "rel/../ws-rel", 1);
  EXPECT_EQ(Workspace::default_dir(), fs::current_path() / "ws-rel");

  restore("KOPE_WORKSPACE", ws);
  restore("XDG_DATA_HOME", xdg);
  restore("HOME", home);
}

TEST(Workspace, RelativeFolderIsMadeAbsolute) {
  TempDir tmp;
  const fs::path saved = fs::current_path();
  fs::current_path(tmp.path());
  Workspace ws = Workspace::open("a/./b/../ws");
  fs::current_path(saved);
  EXPECT_TRUE(ws.dir().is_absolute()) << ws.dir();
  EXPECT_EQ(ws.dir(), fs::canonical(tmp.path()) / "a" / "ws");
  EXPECT_TRUE(fs::exists(tmp.path() / "a" / "ws" / "kope.db"));
}

// The schema of version 1, as kope 0.1 created it: a database of that kope must migrate keeping every row.
const char* kSchemaV1 = R"sql(
CREATE TABLE runs(id INTEGER PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, command TEXT NOT NULL,
  device TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'running', host TEXT NOT NULL, pid INTEGER NOT NULL);
CREATE TABLE kernels(id INTEGER PRIMARY KEY, task TEXT NOT NULL, sha256 TEXT NOT NULL, source TEXT NOT NULL,
  origin TEXT NOT NULL, thought TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL, UNIQUE(task, sha256));
CREATE TABLE evaluations(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id), prev_evaluation_id INTEGER REFERENCES evaluations(id),
  task TEXT NOT NULL, task_digest TEXT NOT NULL, device TEXT NOT NULL, status TEXT NOT NULL, compiled INTEGER,
  correct INTEGER, speedup REAL, started_at TEXT NOT NULL, finished_at TEXT, report TEXT);
CREATE INDEX evaluations_by_task ON evaluations(task, id);
CREATE TABLE case_results(evaluation_id INTEGER NOT NULL REFERENCES evaluations(id), case_name TEXT NOT NULL,
  status TEXT NOT NULL, correct INTEGER NOT NULL, mean_rel_err REAL, max_rel_err REAL, baseline_median_ns REAL,
  kernel_median_ns REAL, speedup REAL, message TEXT NOT NULL, PRIMARY KEY(evaluation_id, case_name));
CREATE TABLE incumbents(task TEXT NOT NULL, device TEXT NOT NULL, kernel_id INTEGER NOT NULL REFERENCES kernels(id),
  evaluation_id INTEGER NOT NULL REFERENCES evaluations(id), speedup REAL NOT NULL, updated_at TEXT NOT NULL,
  PRIMARY KEY(task, device));
INSERT INTO runs VALUES(1, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', 'kope run', 'cpu', 'done', 'old-host', 1);
INSERT INTO kernels VALUES(1, 'affine', 'aaa', '// one', 'one.cpp', 'idea', '2026-01-01T00:00:00Z');
INSERT INTO kernels VALUES(2, 'affine', 'bbb', '// two', 'two.cpp', '', '2026-01-01T00:00:00Z');
INSERT INTO evaluations VALUES(1, 1, 1, NULL, 'affine', 'd1', 'cpu', 'passed', 1, 1, 2.5, '2026-01-01T00:00:01Z',
  '2026-01-01T00:00:02Z', '{"status":"passed"}');
INSERT INTO evaluations VALUES(2, 1, 2, 1, 'affine', 'd1', 'cpu', 'wrong', 1, 0, NULL, '2026-01-01T00:00:03Z',
  '2026-01-01T00:00:04Z', '{"status":"wrong"}');
INSERT INTO case_results VALUES(1, 'one', 'passed', 1, 1e-8, 2e-8, 200, 80, 2.5, 'ok');
INSERT INTO case_results VALUES(2, 'one', 'wrong', 0, 0.5, 0.9, 200, 90, NULL, 'bad');
INSERT INTO incumbents VALUES('affine', 'cpu', 1, 1, 2.5, '2026-01-01T00:00:02Z');
PRAGMA user_version=1;
)sql";

TEST(Workspace, MigratesAVersionOneDatabaseKeepingEveryRow) {
  TempDir tmp;
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_file(tmp).c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, kSchemaV1, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  Workspace ws = Workspace::open(tmp.path());
  EXPECT_EQ(ws.schema_version(), kSchemaVersion);
  RawDb raw(db_file(tmp));
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM runs"), "1");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM kernels"), "2");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM evaluations"), "2");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM case_results"), "2");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM incumbents"), "1");
  auto e = ws.evaluation(1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->status, "passed");
  EXPECT_EQ(e->speedup, std::optional<double>(2.5));
  EXPECT_EQ(e->report, "{\"status\":\"passed\"}");
  EXPECT_EQ(e->review, "");
  auto e2 = ws.evaluation(2);
  ASSERT_TRUE(e2);
  EXPECT_EQ(e2->prev_evaluation_id, std::optional<int64_t>(1));
  EXPECT_EQ(e2->kernel_origin, "two.cpp");
  EXPECT_EQ(ws.runs(10).at(0).status, "done");
  auto inc = ws.incumbent("affine", "cpu");
  ASSERT_TRUE(inc);
  EXPECT_EQ(inc->evaluation_id, 1);
  EXPECT_EQ(inc->baseline, "naive");  // migration 3: stored before the library baseline, so naive
  EXPECT_EQ(ws.kernel_source(2), std::optional<std::string>("// two"));
  // The new columns work on migrated rows.
  ws.request_review(2, "test");
  EXPECT_EQ(ws.evaluation(2)->review, "pending");
  // Opening again does not migrate twice.
  Workspace again = Workspace::open(tmp.path());
  EXPECT_EQ(again.schema_version(), kSchemaVersion);
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM evaluations"), "2");
}

TEST(Workspace, EvaluationLeftRunningInAnEndedRunIsMarkedInterrupted) {
  // What the invalid-UTF-8 bug left behind: the run closed as "error", its evaluation "running" for ever.
  TempDir tmp;
  int64_t eval = 0, live_eval = 0;
  {
    Workspace ws = Workspace::open(tmp.path());
    const Task task = test::affine_task();
    const int64_t run = ws.begin_run("kope eval", "cpu");
    const int64_t k = ws.add_kernel(task.name, "// k\n", "k.cpp", "");
    eval = ws.begin_evaluation(run, k, task, "cpu", std::nullopt);
    ws.finish_run(run, "error");
    const int64_t live = ws.begin_run("kope run", "cpu");
    live_eval = ws.begin_evaluation(live, k, task, "cpu", std::nullopt);
  }
  Workspace ws = Workspace::open(tmp.path());
  auto row = ws.evaluation(eval);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->status, "interrupted");
  EXPECT_FALSE(row->finished_at.empty());
  EXPECT_EQ(ws.evaluation(live_eval)->status, "running") << "a live run's evaluation must be left alone";
}

TEST(Workspace, ReviewsAreRequestedDecidedAndLogged) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  f.ws.finish_evaluation(e, passing_report(f.task));
  EXPECT_THROW(f.ws.decide_review(e, true, "", std::nullopt), Error) << "never flagged";
  f.ws.request_review(e, "case one: under half the floor");
  ASSERT_EQ(f.ws.reviews(std::string("pending"), 10).size(), 1u);
  f.ws.decide_review(e, true, "checked by hand", Incumbent{f.task.name, "cpu", f.kernel, e, 4.0});
  auto row = f.ws.evaluation(e);
  EXPECT_EQ(row->review, "approved");
  EXPECT_EQ(row->review_note, "checked by hand");
  EXPECT_FALSE(row->reviewed_at.empty());
  EXPECT_TRUE(f.ws.reviews(std::string("pending"), 10).empty());
  EXPECT_EQ(f.ws.reviews(std::nullopt, 10).size(), 1u);
  auto inc = f.ws.incumbent(f.task.name, "cpu");
  ASSERT_TRUE(inc);
  EXPECT_EQ(inc->evaluation_id, e);
  // A decided review cannot be decided again; both steps are in the log.
  EXPECT_THROW(f.ws.decide_review(e, false, "changed my mind", std::nullopt), Error);
  auto log = f.ws.review_log(e);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[0].decision, "pending");
  EXPECT_EQ(log[0].note, "case one: under half the floor");
  EXPECT_EQ(log[1].decision, "approved");
  EXPECT_TRUE(log[1].promoted);
  EXPECT_THROW(f.ws.request_review(9999, "x"), Error);
}

TEST(Workspace, InvalidUtf8IsStoredEscapedNeverAnError) {
  Fixture f;
  const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  EvalReport rep = passing_report(f.task);
  rep.cases[0].log = "crash \xFF\xFE";
  rep.compile.log = "x.cpp:1:1: error: \xC3";
  f.ws.finish_evaluation(e, rep);  // nlohmann alone throws type_error 316 here
  auto row = f.ws.evaluation(e);
  EXPECT_EQ(row->status, "passed");
  json j = json::parse(row->report);
  EXPECT_EQ(j["cases"][0]["log"], "crash \\xFF\\xFE");
  const int64_t e2 = f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  f.ws.fail_evaluation(e2, std::string("bad \xFF and a nul \0 byte", 22));
  EXPECT_EQ(f.ws.evaluation(e2)->report, std::string("bad \\xFF and a nul \0 byte", 25));
}

TEST(Workspace, AFileWhereTheFolderShouldBeIsAnEnvironmentError) {
  TempDir tmp;
  test::write_text(tmp / "plain-file", "not a folder");
  EXPECT_THROW(Workspace::open(tmp / "plain-file" / "ws"), EnvError);
  EXPECT_THROW(Workspace::open(tmp / "plain-file"), EnvError);
  // A database file that is really a folder cannot be opened.
  fs::create_directories(tmp / "ws2" / "kope.db");
  try {
    Workspace::open(tmp / "ws2");
    FAIL() << "opened a folder as the database";
  } catch (const EnvError& e) {
    EXPECT_NE(std::string(e.what()).find((tmp / "ws2" / "kope.db").string()), std::string::npos) << e.what();
  }
}


// The spread of whole evaluations comes from the baseline medians of the passed evaluations on the same device:
// three of affine whose baselines moved by factors 1.1, 1/1.1 and 1 (sd 0.0953 in log), a wrong one and one on
// another device that move far more and count for nothing, and a running one that has no medians yet.
TEST(Workspace, BetweenEvaluationsComesFromTheBaselinesOfPassedEvaluationsOnTheDevice) {
  Fixture f;
  auto record = [&](double factor, const std::string& device, bool wrong) {
    const int64_t e = f.ws.begin_evaluation(f.run, f.kernel, f.task, device, std::nullopt);
    EvalReport rep = passing_report(f.task);
    for (CaseResult& c : rep.cases) {
      *c.baseline_median_ns *= factor;
      c.speedup = *c.baseline_median_ns / *c.kernel_median_ns;
    }
    if (wrong) rep.cases[1].status = CaseStatus::Wrong;
    f.ws.finish_evaluation(e, rep);
  };
  EXPECT_EQ(f.ws.between_evaluations("cpu").dof, 0);
  record(1.1, "cpu", false);
  record(1 / 1.1, "cpu", false);
  record(1.0, "cpu", false);
  record(5.0, "cpu", true);
  record(9.0, "cuda", false);
  f.ws.begin_evaluation(f.run, f.kernel, f.task, "cpu", std::nullopt);
  const BetweenEvaluations b = f.ws.between_evaluations("cpu");
  EXPECT_EQ(b.dof, 2);
  EXPECT_EQ(b.evaluations, 3);
  EXPECT_EQ(b.tasks, 1);
  EXPECT_NEAR(b.sd_log, std::log(1.1), 1e-9);
  // Only the newest `limit` passed evaluations: the last two differ by a factor 1.1, sd log(1.1)/sqrt(2).
  EXPECT_NEAR(f.ws.between_evaluations("cpu", 2).sd_log, std::log(1.1) / std::sqrt(2.0), 1e-9);
  EXPECT_EQ(f.ws.between_evaluations("cuda").dof, 0);
}

}  // namespace
}  // namespace kope
