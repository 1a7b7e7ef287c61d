// The workbench window, built for real under the offscreen platform and driven as a user would. The tests read
// the models and the panes' state, not cell text.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTextDocument>

#include <functional>

#include "charts/chart_panel.h"
#include "charts/speedup_chart.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "i18n.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "models/models.h"
#include "models/status.h"
#include "scripted_llm_server.h"
#include "test_support.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/run_controller.h"

using namespace kope::workspace;

using namespace kope;
using namespace kope::ui;
using namespace kope::loop;

namespace {

// Spins the event loop until `done` holds or `ms` pass.
bool waitFor(const std::function<bool()>& done, int ms = 120000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  return true;
}

const char* kWrongMish =
    "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
    "  const float* x = (const float*)a->inputs[0].data; float* y = (float*)a->outputs[0].data;\n"
    "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = x[i];\n  return 0;\n}\n";

class UiTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<MainWindow> window;
  int asked = 0;
  QMessageBox::StandardButton answer = QMessageBox::Cancel;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    window->askUnsaved = [this](const QString&) {
      ++asked;
      return answer;
    };
    window->askSavePath = [this] { return QString::fromStdString((dir / "saved.cpp").string()); };
    window->setEvalOptions(test::quick_options());
    window->show();
  }
  void TearDown() override {
    window->editor()->setModified(false);
    if (window->runController()->control()) window->runController()->control()->stop();
    waitFor([&] { return !window->engine()->busy(); });
  }

  bool evaluateAndWait(const std::vector<std::string>& cases) {
    EvalOptions o = test::quick_options();
    o.cases = cases;
    window->setEvalOptions(o);
    QSignalSpy shown(window.get(), &MainWindow::reportShown);
    QSignalSpy failed(window.get(), &MainWindow::errorShown);
    window->evaluateAction()->trigger();
    const bool done = waitFor([&] { return shown.count() > 0 || failed.count() > 0; });
    if (failed.count() > 0) ADD_FAILURE() << failed.at(0).at(0).toString().toStdString();
    return done && shown.count() > 0;
  }
  qint64 lastReported(QSignalSpy& spy) { return spy.last().at(0).toLongLong(); }
  CaseModel* cases() { return window->casesPane()->model(); }
  HistoryModel* history() { return window->historyPane()->model(); }
};

}  // namespace

TEST_F(UiTest, ListsTheSuiteAndShowsTheSelectedTask) {
  // Every embedded task, whatever the levels hold.
  EXPECT_EQ(window->taskModel()->rowCount(), static_cast<int>(kope::Suite::embedded().tasks().size()));
  ASSERT_TRUE(window->selectTask("swi_glu"));
  ASSERT_NE(window->currentTask(), nullptr);
  EXPECT_EQ(window->currentTask()->name, "swi_glu");
  EXPECT_EQ(window->resultsHeader()->task(), "swi_glu");
  EXPECT_GE(window->candidateBox()->count(), 2);
  EXPECT_FALSE(window->selectTask("nosuch"));
}

TEST_F(UiTest, EvaluationFillsCasesCompileProfileAndHistory) {
  ASSERT_TRUE(window->selectTask("gelu"));
  ASSERT_TRUE(window->loadCandidate("gelu/02_erfc_vectorised.cpp"));
  EXPECT_NE(window->editor()->text().indexOf("kope_kernel"), -1);
  QSignalSpy inserted(cases(), &QAbstractItemModel::rowsInserted);  // rows appear as cases finish
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  ASSERT_TRUE(evaluateAndWait({"n1", "n1000"}));
  EXPECT_EQ(inserted.count(), 2);
  ASSERT_EQ(cases()->rowCount(), 2);
  EXPECT_EQ(cases()->index(0, CaseModel::Name).data(RawRole).toString(), "n1");
  EXPECT_EQ(cases()->index(0, CaseModel::Status).data(StatusRole).toString(), "passed");
  EXPECT_GT(cases()->index(1, CaseModel::Speedup).data(RawRole).toDouble(), 0.0);
  EXPECT_EQ(cases()->index(1, CaseModel::Interval).data(RawRole).toList().size(), 2);
  // the header names task, kernel version and evaluation
  ResultsHeader* h = window->resultsHeader();
  EXPECT_EQ(h->task(), "gelu");
  EXPECT_EQ(h->evaluationId(), lastReported(shown));
  EXPECT_FALSE(h->isStale());
  EXPECT_FALSE(h->isRunning());
  // compile pane: the command, the time, the "compiled" line
  const QString out = window->compilePane()->output()->toPlainText();
  EXPECT_TRUE(out.startsWith("$ ")) << out.toStdString();
  EXPECT_NE(out.indexOf("compiled"), -1) << out.toStdString();
  // profile pane: both sample series, the floor and HAP
  window->profilePane()->selectCase(1);
  EXPECT_EQ(window->profilePane()->chart()->seriesCount(), 2);
  EXPECT_EQ(window->profilePane()->chart()->values(1).size(), test::quick_options().reps);
  EXPECT_NE(window->profilePane()->details()->text().indexOf("HAP"), -1) << window->profilePane()->details()->text().toStdString();
  EXPECT_TRUE(window->profilePane()->counters()->isHidden());  // the CPU device has no profiler counters
  window->profilePane()->setCounters({{"l2_miss", 12.0}});
  EXPECT_FALSE(window->profilePane()->counters()->isHidden());
  EXPECT_EQ(window->chart()->values().size(), 2);
  ASSERT_TRUE(waitFor([&] { return history()->rowCount() == 1; }));
  EXPECT_EQ(history()->index(0, HistoryModel::Status).data(StatusRole).toString(), "passed");
  EXPECT_EQ(history()->index(0, 0).data(IdRole).toLongLong(), lastReported(shown));
  EXPECT_EQ(history()->index(0, HistoryModel::Kernel).data(RawRole).toString(), "gelu/02_erfc_vectorised.cpp");
  // edited, it is no longer the shipped kernel and is not recorded under its name
  window->editor()->append("// edited\n");
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  ASSERT_TRUE(waitFor([&] { return history()->rowCount() == 2; }));
  EXPECT_EQ(history()->index(0, HistoryModel::Kernel).data(RawRole).toString(), "gelu/02_erfc_vectorised.cpp (edited)");
}

TEST_F(UiTest, CompileErrorsAndWarningsAreMarkedInTheEditor) {
  ASSERT_TRUE(window->selectTask("exp"));
  window->editor()->setText(
      "// kope:cxxflags -O2 -Wall\n#include \"kope_kernel.h\"\n\nint kope_kernel(const kope_args* a) {\n"
      "  int unused = 3;\n  return no_such;\n}\n");
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  EXPECT_EQ(window->tabs()->currentWidget(), window->compilePane());
  DiagnosticModel* d = window->compilePane()->model();
  int error_row = -1, warning_row = -1;
  for (int r = 0; r < d->rowCount(); ++r) {
    const QString sev = d->index(r, 0).data(StatusRole).toString();
    if (sev == "error" && error_row < 0) error_row = r;
    if (sev == "warning" && warning_row < 0) warning_row = r;
  }
  ASSERT_GE(error_row, 0);
  ASSERT_GE(warning_row, 0);
  EXPECT_EQ(d->index(error_row, 0).data(LineRole).toInt(), 6);
  EXPECT_EQ(window->editor()->diagnosticMarkCount(), 1);
  EXPECT_EQ(window->editor()->warningMarkCount(), 1);
  EXPECT_TRUE(window->editor()->hasIndicatorAt(5, 9));   // "no_such" on line 6
  EXPECT_FALSE(window->editor()->hasIndicatorAt(3, 0));
  const QString out = window->compilePane()->output()->toPlainText();
  EXPECT_NE(out.indexOf("^"), -1) << out.toStdString();
  EXPECT_NE(out.indexOf("did not compile"), -1);
  window->editor()->setCursorPosition(0, 0);
  emit window->compilePane()->view()->activated(d->index(error_row, 0));
  int line = -1, col = -1;
  window->editor()->getCursorPosition(&line, &col);
  EXPECT_EQ(line, 5);
}

TEST_F(UiTest, WrongKernelShowsTheFullMessageInTheDetailView) {
  ASSERT_TRUE(window->selectTask("mish"));
  window->editor()->setText(kWrongMish);
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  ASSERT_EQ(cases()->rowCount(), 1);
  EXPECT_EQ(cases()->index(0, CaseModel::Status).data(StatusRole).toString(), "wrong");
  EXPECT_NE(cases()->index(0, CaseModel::Message).data(FullTextRole).toString().indexOf("worst at index"), -1);
  const QString detail = window->casesPane()->detail()->toPlainText();
  EXPECT_NE(detail.indexOf("Expected"), -1) << detail.toStdString();
  EXPECT_NE(detail.indexOf("worst at index"), -1);
  EXPECT_EQ(window->chart()->values().at(0), 0.0);
}

TEST_F(UiTest, ResultsGoStaleOnEditAndTaskSwitchAsksAboutUnsavedEdits) {
  ASSERT_TRUE(window->selectTask("mish"));
  window->editor()->setText(kWrongMish);
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  EXPECT_TRUE(window->isWindowModified());
  EXPECT_NE(window->windowTitle().indexOf("untitled.cpp[*]"), -1) << window->windowTitle().toStdString();
  window->editor()->append("// edited\n");
  EXPECT_TRUE(window->resultsHeader()->isStale());
  window->editor()->setText(kWrongMish);
  EXPECT_FALSE(window->resultsHeader()->isStale());
  // Cancel keeps the task and the text.
  answer = QMessageBox::Cancel;
  EXPECT_FALSE(window->selectTask("gelu"));
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(window->currentTask()->name, "mish");
  EXPECT_EQ(window->editor()->text(), kWrongMish);
  EXPECT_EQ(window->resultsHeader()->task(), "mish");
  // Discard switches, and nothing of mish is shown as gelu's.
  answer = QMessageBox::Discard;
  EXPECT_TRUE(window->selectTask("gelu"));
  EXPECT_EQ(window->resultsHeader()->task(), "gelu");
  EXPECT_EQ(window->resultsHeader()->evaluationId(), 0);
  EXPECT_EQ(cases()->rowCount(), 0);
  EXPECT_EQ(window->compilePane()->model()->rowCount(), 0);
  EXPECT_FALSE(window->isWindowModified());
}

TEST_F(UiTest, QuitAsksAndSaveWritesTheFile) {
  window->editor()->setText("// my kernel\n");
  EXPECT_TRUE(window->isWindowModified());
  answer = QMessageBox::Cancel;
  EXPECT_FALSE(window->close());
  EXPECT_TRUE(window->isVisible());
  answer = QMessageBox::Save;
  EXPECT_TRUE(window->close());
  QFile f(QString::fromStdString((dir / "saved.cpp").string()));
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(QString::fromUtf8(f.readAll()), "// my kernel\n");
  EXPECT_NE(window->windowTitle().indexOf("saved.cpp"), -1);
  EXPECT_FALSE(window->isWindowModified());
}

TEST_F(UiTest, RestoreBringsBackAVersionWithItsOwnResults) {
  ASSERT_TRUE(window->selectTask("gelu"));
  const QString v1 = "#include \"kope_kernel.h\"\n// version one\nint kope_kernel(const kope_args*) { return 1; }\n";
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  window->editor()->setText(v1);
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  const qint64 first = lastReported(shown);
  ASSERT_TRUE(window->loadCandidate("gelu/02_erfc_vectorised.cpp") || asked > 0);
  answer = QMessageBox::Discard;
  ASSERT_TRUE(window->loadCandidate("gelu/02_erfc_vectorised.cpp"));
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  EXPECT_EQ(cases()->index(0, CaseModel::Status).data(StatusRole).toString(), "passed");
  // with unsaved edits, Cancel keeps them
  window->editor()->append("// typing\n");
  answer = QMessageBox::Cancel;
  const QString typed = window->editor()->text();
  window->restoreEvaluation(first);
  QCoreApplication::processEvents();
  EXPECT_EQ(window->editor()->text(), typed);
  answer = QMessageBox::Discard;
  QSignalSpy restored(window.get(), &MainWindow::evaluationRestored);
  window->restoreEvaluation(first);
  ASSERT_TRUE(waitFor([&] { return restored.count() > 0; }));
  EXPECT_EQ(window->editor()->text(), v1);
  EXPECT_EQ(window->resultsHeader()->evaluationId(), first);
  EXPECT_FALSE(window->resultsHeader()->isStale());
  ASSERT_EQ(cases()->rowCount(), 1);
  EXPECT_EQ(cases()->index(0, CaseModel::Status).data(StatusRole).toString(), "runtime_error");
}

TEST_F(UiTest, RunControllerHoldsACandidateForEditingAndRecordsSteering) {
  ASSERT_TRUE(window->selectTask("masked_scale"));
  EvalOptions o = test::quick_options();
  o.cases = {"n1"};
  window->setEvalOptions(o);
  RunController* run = window->runController();
  EXPECT_EQ(run->tasks()->checkedTasks(), std::vector<std::string>{"masked_scale"});
  run->holdBox()->setChecked(true);
  QSignalSpy held(run, &RunController::candidateHeld);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  EXPECT_FALSE(run->startButton()->isEnabled());
  ASSERT_TRUE(waitFor([&] { return held.count() > 0; }));
  EXPECT_NE(window->editor()->text().indexOf("kope_kernel"), -1);  // the candidate is in the editor
  EXPECT_TRUE(run->approveButton()->isEnabled());
  run->hintEdit()->setText("unroll by 8");
  run->hintButton()->click();
  window->editor()->append("// approved with an edit\n");
  run->approveButton()->click();
  run->holdBox()->setChecked(false);  // the rest go through
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  const int shipped = static_cast<int>(embedded_candidates("masked_scale").size());
  ASSERT_EQ(run->attempts()->rowCount(), shipped);
  // the steering log, as recorded with the run
  ASSERT_TRUE(waitFor([&] { return run->steering()->rowCount() >= 4; }));
  QStringList acts;
  for (int r = 0; r < run->steering()->rowCount(); ++r) acts << run->steering()->index(r, 0).data(StatusRole).toString();
  EXPECT_EQ(acts, (QStringList{"hold", "hint", "edit", "hold"})) << acts.join(",").toStdString();
  Workspace ws = Workspace::open(dir / "ws");
  EXPECT_EQ(steering_log(ws, run->lastRunId()).size(), 4u);
  auto row = ws.evaluation(run->attempts()->index(0, 0).data(IdRole).toLongLong());
  ASSERT_TRUE(row);
  EXPECT_NE(ws.kernel_source(row->kernel_id)->find("approved with an edit"), std::string::npos);
}

// The window runs the LLM agent from a named profile of the settings file, with the memory arm and budgets
// chosen in the run controller; a hint sent while the model answers goes into the next prompt.
TEST_F(UiTest, TheWindowRunsTheLlmAgentFromAProfileAndSendsHints) {
  test::ScriptedServer srv({
      test::sse_response(test::cut_at(test::openai_stream({"I have no kernel yet."}), {10, 40, 80, 120}), 300),
      test::sse_response({test::openai_stream({"Still thinking."})}),
  });
  test::write_text(dir / "cfg" / "kope" / "llm.json",
                   R"({"profiles": {"scripted": {"provider": "openai", "base_url": ")" + srv.url() +
                       R"(/v1", "model": "m", "context_window": 16000, "max_output_tokens": 1000}}})");
  setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
  ASSERT_TRUE(window->selectTask("gelu"));
  RunController* run = window->runController();
  run->policyBox()->setEditText("scripted");
  run->memoryBox()->setCurrentText("off");
  run->maxAttempts()->setValue(2);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] { return !srv.requests().empty(); }));
  const std::string hint = "look at the tanh approximation (hint 51c2)";
  run->hintEdit()->setText(QString::fromStdString(hint));
  run->hintButton()->click();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  unsetenv("XDG_CONFIG_HOME");
  const auto reqs = srv.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].body.find(hint), std::string::npos);
  EXPECT_NE(reqs[1].body.find(hint), std::string::npos) << reqs[1].body;
  EXPECT_NE(reqs[1].body.find("Engineer's hints"), std::string::npos);
  ASSERT_EQ(run->attempts()->rowCount(), 2);
  EXPECT_EQ(run->attempts()->index(0, 0).data(StatusRole).toString(), "no_candidate");
  Workspace ws = Workspace::open(dir / "ws");
  EXPECT_EQ(ws.runs(1).at(0).status, "done");
}

TEST_F(UiTest, PauseThenStopEndsTheRunAsStopped) {
  ASSERT_TRUE(window->selectTask("gelu"));
  EvalOptions o = test::quick_options();
  o.cases = {"n1"};
  window->setEvalOptions(o);
  RunController* run = window->runController();
  QSignalSpy finished(run, &RunController::runFinished);
  QSignalSpy phases(window->engine(), &Engine::loopPhase);
  run->startButton()->click();
  run->pauseButton()->click();  // after the current attempt
  ASSERT_TRUE(waitFor([&] {
    for (const auto& args : phases)
      if (args.at(2).toString() == "paused") return true;
    return false;
  }));
  const int at_pause = run->attempts()->rowCount();
  EXPECT_LE(at_pause, 1);
  EXPECT_NE(run->phaseLabel()->text().indexOf(statusText("paused")), -1) << run->phaseLabel()->text().toStdString();
  run->stopButton()->click();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  EXPECT_EQ(run->attempts()->rowCount(), at_pause);
  Workspace ws = Workspace::open(dir / "ws");
  EXPECT_EQ(ws.runs(1).at(0).status, "stopped");
  EXPECT_TRUE(run->startButton()->isEnabled());
}

TEST_F(UiTest, ForkFromHistoryAndCompareTwoVersions) {
  ASSERT_TRUE(window->selectTask("masked_scale"));
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  ASSERT_TRUE(window->loadCandidate(QString::fromStdString(embedded_candidates("masked_scale")[0].name)));
  ASSERT_TRUE(evaluateAndWait({"n1", "n1023"}));
  answer = QMessageBox::Discard;
  ASSERT_TRUE(window->loadCandidate(QString::fromStdString(embedded_candidates("masked_scale")[1].name)));
  ASSERT_TRUE(evaluateAndWait({"n1", "n1023"}));
  ASSERT_TRUE(waitFor([&] { return history()->rowCount() == 2; }));
  // compare the two
  HistoryPane* hp = window->historyPane();
  hp->select({0, 1});
  EXPECT_TRUE(hp->compareButton()->isEnabled());
  QSignalSpy compared(window.get(), &MainWindow::comparisonShown);
  hp->compareButton()->click();
  ASSERT_TRUE(waitFor([&] { return compared.count() > 0; }));
  ComparePane* cp = window->comparePane();
  EXPECT_EQ(window->tabs()->currentWidget(), cp);
  ASSERT_EQ(cp->model()->rowCount(), 2);
  EXPECT_GT(cp->model()->index(1, CompareModel::Speedup).data(RawRole).toDouble(), 0.0);
  EXPECT_EQ(cp->model()->index(1, CompareModel::Interval).data(RawRole).toList().size(), 2);
  EXPECT_GT(cp->left()->diffMarkCount() + cp->right()->diffMarkCount(), 0);
  EXPECT_EQ(cp->chart()->values(0).size(), 2);
  EXPECT_LT(cp->comparison().a_evaluation, cp->comparison().b_evaluation);
  // no incumbent yet: said, not hidden
  QSignalSpy failed(window.get(), &MainWindow::errorShown);
  hp->select({0});
  hp->incumbentButton()->click();
  ASSERT_TRUE(waitFor([&] { return failed.count() > 0; }));
  EXPECT_NE(failed.at(0).at(0).toString().indexOf("no incumbent"), -1);
  // fork a run from the older version
  const qint64 older = history()->at(1).id;
  hp->select({1});
  hp->forkButton()->click();
  RunController* run = window->runController();
  run->maxAttempts()->setValue(1);
  QSignalSpy finished(run, &RunController::runFinished);
  run->startButton()->click();
  ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
  Workspace ws = Workspace::open(dir / "ws");
  auto log = steering_log(ws, run->lastRunId());
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log[0].act, "fork");
  EXPECT_EQ(log[0].detail, "evaluation " + std::to_string(older));
}

TEST_F(UiTest, ARunningEvaluationCanBeCancelled) {
  ASSERT_TRUE(window->selectTask("gelu"));
  // A kernel that sleeps far past the test inside its first call: only the cancel can end the evaluation.
  window->editor()->setText(QString::fromStdString(
      "#include \"kope_kernel.h\"\n#include <unistd.h>\nint kope_kernel(const kope_args* a) { (void)a; sleep(1000); return 0; }\n"));
  EvalOptions o = test::quick_options();
  o.cases = {"n1", "n1000"};
  o.case_timeout_seconds = 600;
  window->setEvalOptions(o);
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  bool testing = false;
  QObject::connect(window->engine(), &ui::Engine::evaluationProgress, window.get(),
                   [&](quint64, const ui::ProgressEvent& e) { testing = testing || e.phase == EvalProgress::Phase::Testing; });
  window->evaluateAction()->trigger();
  EXPECT_TRUE(window->resultsHeader()->isRunning());
  EXPECT_TRUE(window->cancelAction()->isEnabled());
  ASSERT_TRUE(waitFor([&] { return testing; }));
  QElapsedTimer settle;
  settle.start();
  waitFor([&] { return settle.elapsed() > 500; });  // the worker is inside the sleeping call by now
  ASSERT_TRUE(window->engine()->busy());
  QElapsedTimer t;
  t.start();
  window->cancelAction()->trigger();
  EXPECT_FALSE(window->resultsHeader()->isRunning());
  EXPECT_EQ(window->resultsHeader()->evaluationId(), 0);
  ASSERT_TRUE(waitFor([&] { return !window->engine()->busy(); }, 5000)) << "the engine did not stop";
  EXPECT_LT(t.elapsed(), 3000);
  QCoreApplication::processEvents();
  EXPECT_EQ(shown.count(), 0);  // recorded, never shown as current
  EXPECT_EQ(cases()->rowCount(), 0);
  QVector<EvaluationRow> rows;
  QObject::connect(window->engine(), &ui::Engine::historyReady, window.get(),
                   [&](const QVector<EvaluationRow>& r) { rows = r; });
  window->engine()->refreshHistory(std::nullopt);
  ASSERT_TRUE(waitFor([&] { return !rows.isEmpty(); }));
  EXPECT_EQ(rows.front().status, "cancelled");  // recorded as cancelled: not running, not error
}

TEST(Engine, ASupersededEvaluationIsRecordedButNotDelivered) {
  test::TempDir dir;
  ui::Engine engine(dir / "ws");
  Task task = test::affine_task();
  EvalOptions o = test::quick_options();
  o.cases = {"one"};
  QSignalSpy finished(&engine, &ui::Engine::evaluationFinished);
  const std::string body = "for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;";
  quint64 first = engine.evaluate(task, test::affine_kernel(body, "// first\n"), "a.cpp", o);
  quint64 second = engine.evaluate(task, test::affine_kernel(body, "// second\n"), "b.cpp", o);
  EXPECT_NE(first, second);
  ASSERT_TRUE(waitFor([&] { return !engine.busy(); }));
  QCoreApplication::processEvents();
  ASSERT_EQ(finished.count(), 1);
  EXPECT_EQ(finished.at(0).at(0).value<quint64>(), second);
  QSignalSpy history(&engine, &ui::Engine::historyReady);
  engine.refreshHistory(std::nullopt);
  ASSERT_TRUE(waitFor([&] { return history.count() > 0; }));
  EXPECT_EQ(history.at(0).at(0).value<QVector<EvaluationRow>>().size(), 2);  // nothing recorded is lost
}

TEST(Engine, BadWorkspaceArrivesAsAnError) {
  test::TempDir dir;
  test::write_text(dir / "file", "x");
  ui::Engine engine(dir / "file" / "ws");
  QSignalSpy failed(&engine, &ui::Engine::jobFailed);
  engine.refreshHistory(std::nullopt);
  ASSERT_TRUE(waitFor([&] { return failed.count() > 0; }, 10000));
  EXPECT_NE(failed.at(0).at(1).toString().indexOf("workspace"), -1) << failed.at(0).at(1).toString().toStdString();
}

TEST(Editor, LexerKnowsTheKernelAbiAndMarginIsSet) {
  ui::KernelLexer lexer;
  EXPECT_NE(std::string(lexer.keywords(2)).find("kope_tensor"), std::string::npos);
  EXPECT_NE(std::string(lexer.keywords(2)).find("__global__"), std::string::npos);
  EXPECT_NE(std::string(lexer.keywords(1)).find("while"), std::string::npos);
  ui::KernelEditor editor;
  editor.setText("a\nb\nc\n");
  EXPECT_GT(editor.marginWidth(0), 0);
  EXPECT_GT(editor.marginWidth(1), 0);
  editor.showDiagnostics({{"k.cpp", 2, 1, "warning", "w"}, {"other.cpp", 1, 1, "error", "e"}}, "k.cpp");
  EXPECT_EQ(editor.warningMarkCount(), 1);
  EXPECT_EQ(editor.diagnosticMarkCount(), 0);  // another file's error is not this one's
  EXPECT_TRUE(editor.hasIndicatorAt(1, 0));
  editor.clearDiagnosticMarks();
  EXPECT_FALSE(editor.hasIndicatorAt(1, 0));
}

// A configured workspace path that looks like markup is shown as text; every label that may render markup holds
// none of it.
TEST(Window, AWorkspacePathThatLooksLikeMarkupIsShownAsText) {
  test::TempDir dir;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  const std::string markup = "<b>x</b><img src=\"y.png\">";
  MainWindow w(Suite::embedded(), dir / markup);
  auto* label = w.findChild<QLabel*>("workspace-label");
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->textFormat(), Qt::PlainText);
  EXPECT_TRUE(label->text().contains(QString::fromStdString(markup)));
  for (QLabel* l : w.findChildren<QLabel*>()) {
    const bool rich = l->textFormat() == Qt::RichText ||
                      (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(l->text()));
    if (rich) EXPECT_FALSE(l->text().contains("<img")) << l->objectName().toStdString() << ": " << l->text().toStdString();
  }
}

TEST(Translation, ChineseIsEmbeddedAndApplies) {
  test::TempDir dir;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  ASSERT_TRUE(ui::install_translation(*QCoreApplication::instance(), "zh_CN"));
  {
    MainWindow w(Suite::embedded(), dir / "ws");
    EXPECT_EQ(w.evaluateAction()->text(), QString::fromUtf8("评测(&E)"));
    EXPECT_NE(w.windowTitle().indexOf(QString::fromUtf8("Kope 工作台")), -1) << w.windowTitle().toStdString();
    EXPECT_EQ(statusText("passed"), QString::fromUtf8("通过"));
    EXPECT_EQ(w.runController()->stopButton()->text(), QString::fromUtf8("立即停止"));
  }
  ASSERT_TRUE(ui::install_translation(*QCoreApplication::instance(), "en"));
  MainWindow w(Suite::embedded(), dir / "ws");
  EXPECT_EQ(w.evaluateAction()->text(), "&Evaluate");
  EXPECT_EQ(statusText("passed"), "passed");
  EXPECT_FALSE(ui::install_translation(*QCoreApplication::instance(), "xx_YY"));
}

TEST(Translation, EveryChineseStringIsTranslated) {
  QFile ts(QString(KOPE_TRANSLATIONS_DIR) + "/kope_zh_CN.ts");
  ASSERT_TRUE(ts.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(ts.readAll());
  EXPECT_GT(text.count("<message>"), 150);
  EXPECT_EQ(text.count("type=\"unfinished\""), 0) << "run the kope_ui_lupdate target and translate the new strings";
  EXPECT_EQ(text.count("type=\"vanished\""), 0);
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
