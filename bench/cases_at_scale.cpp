// The window at N Cases (issue 20 item 6), in one run: a workspace of N recorded attempts made the way the loop
// records them (a kernel version, an evaluation with its report, the Case and Journal entry the evaluation
// makes), then the main window opened on it and driven as a person would: open the workspace and list the Cases
// (the graph's model, the History of a task), filter by a task, search a text and an id, open one Case (its
// details, kernel and diff, what the agent was shown), restore an evaluation from History, and a new Case arriving
// while a run goes. Each as milliseconds until done and as the longest time the GUI thread was held (measured by
// a 5 ms timer: a gap between its ticks is a stall a person sees), against a 100 ms "visible stall" budget. Then
// the SQL the window ran on its graph connection, by total time, each with SQLite's EXPLAIN QUERY PLAN.
//
//   build/bin/bench_cases_at_scale [N=100000] [--fresh]     (the workspace is kept in /tmp for reruns)
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTimer>

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <random>

#include "graph/graph_widget.h"
#include "kope/memory/memory.h"
#include "kope/model/suite.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "models/models.h"
#include "views/history_pane.h"
#include "usage.h"

using namespace kope;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

constexpr double kBudgetMs = 100;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

const char* kThoughts[] = {"compute in fp32 so the loop vectorises", "split across 2 threads above 256k elements",
                           "block the reduction over 4096-element tiles", "Pade approximation of tanh clamped at 3",
                           "unroll by 8 with four accumulators", "prefetch two cache lines ahead",
                           "transpose to unit stride", "lookup table of 256 entries"};

EvalReport report_of(const Task& task, const std::string& name, bool correct, double speedup, std::mt19937& g) {
  EvalReport r;
  r.task = task.name;
  r.task_digest = task.digest;
  r.kernel_name = name;
  r.compiled = true;
  for (int c = 0; c < 3; ++c) {
    CaseResult cr;
    cr.name = "case_" + std::to_string(c);
    cr.status = correct || c < 2 ? CaseStatus::Passed : CaseStatus::Wrong;
    cr.timed = correct;
    if (correct) {
      for (int k = 0; k < 20; ++k) {
        cr.baseline_ns.push_back(1e5 * (1 + 0.01 * (g() % 10)));
        cr.kernel_ns.push_back(1e5 / speedup * (1 + 0.01 * (g() % 10)));
      }
      cr.baseline_median_ns = 1e5;
      cr.kernel_median_ns = 1e5 / speedup;
      cr.speedup = speedup;
      cr.speedup_interval = std::make_pair(speedup * 0.97, speedup * 1.03);
    }
    r.cases.push_back(std::move(cr));
  }
  return r;
}

// N attempts over the suite's tasks, as a loop records them: each from its task's incumbent mostly, sometimes
// from a recent sibling or afresh; 60% correct. Each task's best becomes its incumbent.
void generate(const fs::path& dir, const Suite& suite, int n) {
  workspace::Workspace ws = workspace::Workspace::open(dir);
  memory::MemoryStore::ensure_schema(ws.handle());
  std::mt19937 g(42);
  const std::vector<Task>& tasks = suite.tasks();
  struct Best { std::optional<int64_t> eval; int64_t kernel = 0; double a = 1.0; };
  std::vector<Best> best(tasks.size());
  std::vector<std::vector<int64_t>> recent(tasks.size());
  int64_t run = 0;
  std::optional<store::Txn> txn;
  for (int i = 0; i < n; ++i) {
    if (i % 1000 == 0) {
      if (txn) txn->commit();
      txn.emplace(ws.handle());
    }
    if (i % 200 == 0) run = ws.begin_run("kope run --policy llm --memory active", "cpu");
    const std::size_t t = g() % tasks.size();
    const Task& task = tasks[t];
    const std::string thought = kThoughts[g() % std::size(kThoughts)];
    const std::string source = "// attempt " + std::to_string(i) + ": " + thought +
                               "\n#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) { return 0; }\n";
    const int64_t kernel = ws.add_kernel(task.name, source, "llm", thought);
    std::optional<int64_t> prev = best[t].eval;
    const unsigned k = g() % 10;
    if (k >= 7 && k < 9 && !recent[t].empty()) prev = recent[t][g() % recent[t].size()];
    if (k == 9) prev.reset();
    const int64_t eval = ws.begin_evaluation(run, kernel, task, "cpu", prev);
    const bool correct = g() % 10 < 6;
    const double a = best[t].a * std::uniform_real_distribution<double>(0.7, 1.25)(g);
    ws.finish_evaluation(eval, report_of(task, "attempt_" + std::to_string(i) + ".cpp", correct, a, g));
    recent[t].push_back(eval);
    if (recent[t].size() > 8) recent[t].erase(recent[t].begin());
    if (correct && a > best[t].a * 1.02) best[t] = {eval, kernel, a};
    if ((i + 1) % 10000 == 0) std::printf("  generated %d\n", i + 1), std::fflush(stdout);
  }
  for (std::size_t t = 0; t < tasks.size(); ++t)
    if (best[t].eval) ws.set_incumbent({tasks[t].name, "cpu", best[t].kernel, *best[t].eval, best[t].a, "naive"});
  if (txn) txn->commit();
}

// The longest the GUI thread went without running its event loop while `until` was awaited (or `work` ran).
class StallMeter {
 public:
  StallMeter() {
    timer_.setInterval(5);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      const double now = clock_.nsecsElapsed() / 1e6;
      worst_ = std::max(worst_, now - last_ - 5);
      last_ = now;
    });
  }
  struct Result { double total_ms, stall_ms; };
  // Runs `work` on the GUI thread, then the event loop until `done` holds.
  Result measure(const std::function<void()>& work, const std::function<bool()>& done = [] { return true; }) {
    clock_.start();
    last_ = 0;
    worst_ = 0;
    timer_.start();
    work();
    const double after_work = clock_.nsecsElapsed() / 1e6;
    worst_ = std::max(worst_, after_work - last_);
    last_ = after_work;
    while (!done()) {
      if (clock_.elapsed() > 900000) break;
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    QCoreApplication::processEvents();
    timer_.stop();
    return {clock_.nsecsElapsed() / 1e6, std::max(0.0, worst_)};
  }

 private:
  QTimer timer_;
  QElapsedTimer clock_;
  double last_ = 0, worst_ = 0;
};

// The statements run on a connection, with their total time and count (SQLITE_TRACE_PROFILE).
struct SqlLog {
  std::map<std::string, std::pair<double, int>> by_sql;
  static int trace(unsigned, void* self, void* stmt, void* ns) {
    auto* log = static_cast<SqlLog*>(self);
    const char* sql = sqlite3_sql(static_cast<sqlite3_stmt*>(stmt));
    auto& e = log->by_sql[sql ? sql : "?"];
    e.first += *static_cast<sqlite3_int64*>(ns) / 1e6;
    ++e.second;
    return 0;
  }
};

void print_plans(sqlite3* db, const SqlLog& log) {
  std::vector<std::pair<std::string, std::pair<double, int>>> rows(log.by_sql.begin(), log.by_sql.end());
  std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.second.first > b.second.first; });
  std::printf("\nSQL on the graph's connection, by total time (top 12), with EXPLAIN QUERY PLAN:\n");
  for (std::size_t i = 0; i < rows.size() && i < 12; ++i) {
    const auto& [sql, t] = rows[i];
    std::printf("%9.1f ms %6d x  %.160s\n", t.first, t.second, sql.c_str());
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, ("EXPLAIN QUERY PLAN " + sql).c_str(), -1, &s, nullptr) != SQLITE_OK) continue;
    while (sqlite3_step(s) == SQLITE_ROW)
      std::printf("                      plan: %s\n", reinterpret_cast<const char*>(sqlite3_column_text(s, 3)));
    sqlite3_finalize(s);
  }
}

void row(const char* what, const StallMeter::Result& r) {
  std::printf("%-58s %9.1f ms  stall %8.1f ms  %6.0f%% of %g ms%s\n", what, r.total_ms, r.stall_ms,
              100 * r.stall_ms / kBudgetMs, kBudgetMs, r.stall_ms > kBudgetMs ? "  VISIBLE" : "");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  kope::bench::answer_help(argc, argv, "[N=100000] [--fresh]");
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeBench");
  QApplication::setApplicationName("cases-at-scale");
  const int n = argc > 1 && argv[1][0] != '-' ? std::atoi(argv[1]) : 100000;
  bool fresh = false;
  for (int i = 1; i < argc; ++i) fresh |= std::string(argv[i]) == "--fresh";
  const Suite suite = Suite::embedded();
  const fs::path dir = fs::temp_directory_path() / ("kope_cases_at_scale_" + std::to_string(n));
  const fs::path settings = fs::temp_directory_path() / "kope_cases_at_scale_settings";
  fs::remove_all(settings);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString(settings.string()));
  if (fresh || !fs::exists(dir / "kope.db")) {
    fs::remove_all(dir);
    std::printf("generating %d attempts in %s\n", n, dir.c_str());
    const auto t = Clock::now();
    generate(dir, suite, n);
    std::printf("generated in %.0f s\n", ms_since(t) / 1000);
  }
  int64_t cases = 0, some_eval = 0;
  {
    workspace::Workspace ws = workspace::Workspace::open(dir);
    memory::MemoryStore m(ws.handle());
    cases = m.count_cases();
    memory::CaseFilter newest;
    newest.limit = 1;
    some_eval = m.cases(newest).front().evaluation_id.value_or(0) / 2;
  }
  std::printf("cases at scale: %lld Cases in %s (budget for a visible stall: %g ms)\n\n", static_cast<long long>(cases),
              dir.c_str(), kBudgetMs);

  StallMeter meter;
  std::unique_ptr<ui::MainWindow> w;
  int history = 0;
  graph::GraphWidget* g = nullptr;
  auto listed = [&] { return g && g->nodeCount() == cases && history > 0; };
  // The window's own construction (widgets, fonts, the editor) is the same at 10 Cases as at 100,000; the
  // listing that follows it is what grows with the memory.
  row("open the window (construction)", meter.measure([&] {
        w = std::make_unique<ui::MainWindow>(suite, dir);
        g = qobject_cast<graph::GraphWidget*>(w->graphDock()->widget());
        QObject::connect(w.get(), &ui::MainWindow::historyShown, [&](int rows) { history = rows; });
        w->resize(1440, 900);
      }));
  row("  ... and its first show", meter.measure([&] { w->show(); }));
  row("  ... and the Cases listed (graph model and scene, History)", meter.measure([] {}, listed));
  g->setPollInterval(0);
  SqlLog log;
  sqlite3_trace_v2(g->store()->db(), SQLITE_TRACE_PROFILE, &SqlLog::trace, &log);
  row("  ... and laid out (first frame of the graph)", meter.measure([] {}, [&] { return g->layoutReady(); }));
  w->graphDock()->raise();

  const std::string task = suite.tasks().front().name;
  graph::GraphFilter one_task;
  one_task.task = QString::fromStdString(task);
  row(("filter: task " + task).c_str(), meter.measure([&] { g->setFilter(one_task); }));
  std::printf("%58s (%d of %d shown)\n", "", g->visibleCount(), g->nodeCount());
  row("filter cleared", meter.measure([&] { g->setFilter({}); }));
  int hits = 0;
  row("search: text \"prefetch\"", meter.measure([&] { hits = g->search("prefetch"); }));
  std::printf("%58s (%d matches)\n", "", hits);
  const int64_t some_case = g->model()->idAt(g->nodeCount() / 2);
  row("search: #id", meter.measure([&] { g->search(QString("#%1").arg(some_case)); }));
  row("open one Case (details, kernel, diff, agent view)", meter.measure([&] { g->selectCase(some_case); }));

  QSignalSpy restored(w.get(), &ui::MainWindow::evaluationRestored);
  row("History: restore an evaluation (kernel, report)", meter.measure([&] { w->restoreEvaluation(some_eval); },
                                                                       [&] { return restored.count() > 0; }));
  const std::string other = suite.tasks().back().name;
  history = 0;
  row(("History: switch task to " + other).c_str(),
      meter.measure([&] { w->selectTask(QString::fromStdString(other)); }, [&] { return history > 0; }));

  // A run records one more attempt on its own connection; the graph's poll notices and reads it.
  {
    workspace::Workspace ws = workspace::Workspace::open(dir);
    const Task& t = suite.tasks().front();
    std::mt19937 rng(7);
    const int64_t run = ws.begin_run("kope run (bench)", "cpu");
    const int64_t k = ws.add_kernel(t.name, "// live " + std::to_string(cases) + "\n", "llm", "live attempt");
    const int64_t e = ws.begin_evaluation(run, k, t, "cpu", std::nullopt);
    ws.finish_evaluation(e, report_of(t, "live.cpp", true, 1.1, rng));
  }
  // As in a live window: the poll compares the change stamp and the reader thread reads the new Case; the GUI
  // thread only applies it.
  row("a new Case arrives during a run (the poll, the reader, the apply)",
      meter.measure([&] { g->setPollInterval(20); }, [&] { return g->nodeCount() == cases + 1; }));
  g->setPollInterval(0);
  row("the poll with nothing new (change stamp)", meter.measure([&] { g->store()->change_stamp(); }));

  sqlite3_trace_v2(g->store()->db(), 0, nullptr, nullptr);
  print_plans(g->store()->db(), log);
  w->close();
  return 0;
}
