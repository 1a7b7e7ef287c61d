// What a person met starting and using the window (issue 20, "What was seen"), each driven for real under the
// offscreen platform: bad input at start-up gets a dialog naming what and where and the README's exit status;
// Pause becomes Resume without a full bar; the run controller's choices survive a restart; a hint has nobody to
// go to without a run; an edited shipped kernel keeps its name; a compile error typed by hand is recorded
// nowhere.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTimer>

#include <functional>

#include "editor/kernel_editor.h"
#include "engine.h"
#include "graph/case_details.h"
#include "graph/graph_widget.h"
#include "kope/base/fsutil.h"
#include "kope/memory/memory.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "models/status.h"
#include "startup.h"
#include "test_support.h"
#include "views/results_header.h"
#include "views/run_controller.h"

using namespace kope;
using namespace kope::ui;
using namespace kope::workspace;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 180000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  return true;
}

// Runs the workbench's start with `args`, answering the dialog it shows; returns its exit status and the text.
int start(const QStringList& args, QString& dialog) {
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, [&] {
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* box = qobject_cast<QMessageBox*>(w); box && box->isVisible()) {
        dialog = box->text();
        box->accept();
      }
  });
  poll.start(20);
  return runWorkbench(*qobject_cast<QApplication*>(QCoreApplication::instance()), QStringList{"kope-workbench"} + args);
}

class StartTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  }
  QString ws() const { return QString::fromStdString((dir / "ws").string()); }
};

const char* kBroken =
    "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n  return no_such_name;\n}\n";

}  // namespace

TEST_F(StartTest, AMissingKernelFileIsNamedInADialogAndExitsTwo) {
  QString dialog;
  const QString missing = QString::fromStdString((dir / "no_such_kernel.cpp").string());
  EXPECT_EQ(start({"--workspace", ws(), "--kernel", missing}, dialog), 2);
  EXPECT_TRUE(dialog.contains(missing)) << dialog.toStdString();
  EXPECT_TRUE(dialog.contains("does not exist")) << dialog.toStdString();
  EXPECT_FALSE(std::filesystem::exists(dir / "ws"));  // nothing made for a start that cannot happen
}

TEST_F(StartTest, ABinaryIsRefusedAsAKernel) {
  QString dialog;
  EXPECT_EQ(start({"--workspace", ws(), "--kernel", "/bin/ls"}, dialog), 2);
  EXPECT_TRUE(dialog.contains("/bin/ls")) << dialog.toStdString();
  EXPECT_TRUE(dialog.contains("not a text file")) << dialog.toStdString();
  // The same from File > Open.
  MainWindow w(Suite::embedded(), dir / "ws");
  QString warned;
  w.warn = [&](const QString&, const QString& text) { warned = text; };
  EXPECT_FALSE(w.loadKernelFile("/bin/ls"));
  EXPECT_TRUE(warned.contains("not a text file")) << warned.toStdString();
  EXPECT_TRUE(w.editor()->text().isEmpty());
}

// A workspace that cannot be made is an environment failure: the README's 4, with the path and the OS's reason.
TEST_F(StartTest, AnUnusableWorkspaceGetsADialogAndExitsFour) {
  test::write_text(dir / "a_file", "x");
  const QString bad = QString::fromStdString((dir / "a_file" / "ws").string());
  QString dialog;
  EXPECT_EQ(start({"--workspace", bad}, dialog), 4);
  EXPECT_TRUE(dialog.contains(bad)) << dialog.toStdString();
  EXPECT_TRUE(dialog.contains("Not a directory")) << dialog.toStdString();
}

TEST_F(StartTest, BadUsageAndAnUnknownTaskExitTwoWithADialog) {
  QString dialog;
  EXPECT_EQ(start({"--workspace", ws(), "--no-such-option"}, dialog), 2);
  EXPECT_TRUE(dialog.contains("no-such-option")) << dialog.toStdString();
  EXPECT_EQ(start({"--workspace", ws(), "--task", "nosuch"}, dialog), 2);
  EXPECT_TRUE(dialog.contains("nosuch")) << dialog.toStdString();
  EXPECT_EQ(start({"--workspace", ws(), "stray"}, dialog), 2);
  EXPECT_TRUE(dialog.contains("stray")) << dialog.toStdString();
}

class WindowTest : public StartTest {
 protected:
  std::unique_ptr<MainWindow> window;
  void SetUp() override {
    StartTest::SetUp();
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    EvalOptions o = test::quick_options();
    o.cases = {"n1"};
    window->setEvalOptions(o);
    window->askUnsaved = [](const QString&) { return QMessageBox::Discard; };  // the tests type over kernels
    window->show();
  }
  void TearDown() override {
    window->editor()->setModified(false);
    if (window->runController()->control()) window->runController()->control()->stop();
    waitFor([&] { return !window->engine()->busy(); });
  }
};

// Paused, the button offers Resume and the bar does not show the last attempt's cases as the run's progress.
TEST_F(WindowTest, PauseBecomesResumeAndTheBarDoesNotFill) {
  ASSERT_TRUE(window->selectTask("gelu"));
  RunController* run = window->runController();
  QProgressBar* bar = run->findChild<QProgressBar*>();
  ASSERT_NE(bar, nullptr);
  QSignalSpy phases(window->engine(), &Engine::loopPhase);
  run->startButton()->click();
  run->pauseButton()->click();
  EXPECT_EQ(run->pauseButton()->text(), "Resume");
  ASSERT_TRUE(waitFor([&] {
    for (const auto& args : phases)
      if (args.at(2).toString() == "paused") return true;
    return false;
  }));
  QCoreApplication::processEvents();
  EXPECT_EQ(run->pauseButton()->text(), "Resume");
  EXPECT_LT(bar->value(), bar->maximum()) << bar->value() << " of " << bar->maximum();
  EXPECT_EQ(bar->text(), statusText("paused"));
  run->pauseButton()->click();  // resume
  EXPECT_EQ(run->pauseButton()->text(), "Pause after attempt");
  run->stopButton()->click();
  ASSERT_TRUE(waitFor([&] { return !run->running(); }));
}

TEST_F(WindowTest, TheRunControllersChoicesSurviveARestart) {
  RunController* run = window->runController();
  run->policyBox()->setEditText("my-profile");
  run->memoryBox()->setCurrentText("dump");
  run->maxAttempts()->setValue(5);
  run->patience()->setValue(3);
  run->tokenBudget()->setValue(200);
  run->wallMinutes()->setValue(30);
  run->jobsBox()->setValue(2);
  run->holdBox()->setChecked(true);
  window.reset();
  window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
  run = window->runController();
  EXPECT_EQ(run->policyBox()->currentText(), "my-profile");
  EXPECT_EQ(run->memoryBox()->currentText(), "dump");
  EXPECT_EQ(run->maxAttempts()->value(), 5);
  EXPECT_EQ(run->patience()->value(), 3);
  EXPECT_EQ(run->tokenBudget()->value(), 200);
  EXPECT_EQ(run->wallMinutes()->value(), 30);
  EXPECT_EQ(run->jobsBox()->value(), 2);
  EXPECT_TRUE(run->holdBox()->isChecked());
}

// A hint goes to a running run's next prompt; with no run it cannot be typed, and the field says why.
TEST_F(WindowTest, AHintNeedsARunningRun) {
  RunController* run = window->runController();
  EXPECT_FALSE(run->hintEdit()->isEnabled());
  EXPECT_FALSE(run->hintButton()->isEnabled());
  EXPECT_TRUE(run->hintEdit()->placeholderText().contains("start one")) << run->hintEdit()->placeholderText().toStdString();
  ASSERT_TRUE(window->selectTask("gelu"));
  run->startButton()->click();
  EXPECT_TRUE(run->hintEdit()->isEnabled());
  EXPECT_TRUE(run->hintButton()->isEnabled());
  run->stopButton()->click();
  ASSERT_TRUE(waitFor([&] { return !run->running(); }));
  EXPECT_FALSE(run->hintEdit()->isEnabled());
}

// Edited, a shipped kernel keeps its name (marked modified); Save proposes that name; the recorded name says it
// was edited.
TEST_F(WindowTest, AnEditedShippedKernelKeepsItsName) {
  ASSERT_TRUE(window->selectTask("gelu"));
  ASSERT_TRUE(window->loadCandidate("gelu/02_erfc_vectorised.cpp"));
  EXPECT_TRUE(window->windowTitle().startsWith("02_erfc_vectorised.cpp[*]")) << window->windowTitle().toStdString();
  EXPECT_FALSE(window->isWindowModified());
  window->editor()->append("// my change\n");
  EXPECT_TRUE(window->windowTitle().startsWith("02_erfc_vectorised.cpp[*]")) << window->windowTitle().toStdString();
  EXPECT_TRUE(window->isWindowModified());
  EXPECT_EQ(window->kernelName(), "gelu/02_erfc_vectorised.cpp (edited)");
  EXPECT_TRUE(window->proposedSavePath().endsWith("/02_erfc_vectorised.cpp")) << window->proposedSavePath().toStdString();
  const QString path = QString::fromStdString((dir / "mine.cpp").string());
  QString proposed;
  window->askSavePath = [&] {
    proposed = window->proposedSavePath();
    return path;
  };
  ASSERT_TRUE(window->saveKernel());
  EXPECT_TRUE(proposed.endsWith("02_erfc_vectorised.cpp"));
  EXPECT_NE(read_file(path.toStdString()).find("// my change"), std::string::npos);
  EXPECT_TRUE(window->windowTitle().startsWith("mine.cpp[*]")) << window->windowTitle().toStdString();
  EXPECT_FALSE(window->isWindowModified());
}

// The memory's rule: every recorded evaluation is a Case. A kernel typed here that does not build is no attempt:
// it is shown with its diagnostics and recorded nowhere. Compile alone records nothing either; an Evaluate of a
// kernel that builds is recorded, Case and all.
TEST_F(WindowTest, ACompileErrorTypedByHandIsRecordedNowhere) {
  ASSERT_TRUE(window->selectTask("exp"));
  window->editor()->setText(kBroken);
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  window->evaluateAction()->trigger();
  ASSERT_TRUE(waitFor([&] { return shown.count() > 0; }));
  EXPECT_EQ(shown.at(0).at(0).toLongLong(), 0);
  EXPECT_TRUE(window->resultsHeader()->isCompileOnly());
  EXPECT_EQ(window->editor()->diagnosticMarkCount(), 1);
  auto recorded = [&] {
    Workspace ws = Workspace::open(dir / "ws");
    return std::make_pair(ws.evaluations(std::nullopt, 100).size(),
                          memory::MemoryStore(ws.handle()).cases({}).size());
  };
  EXPECT_EQ(recorded(), std::make_pair(std::size_t{0}, std::size_t{0}));
  ASSERT_TRUE(window->loadCandidate(QString::fromStdString(embedded_candidates("exp").front().name)));
  window->compileAction()->trigger();
  ASSERT_TRUE(waitFor([&] { return shown.count() > 1; }));
  EXPECT_TRUE(window->resultsHeader()->isCompileOnly());
  EXPECT_EQ(recorded(), std::make_pair(std::size_t{0}, std::size_t{0}));
  window->evaluateAction()->trigger();
  ASSERT_TRUE(waitFor([&] { return shown.count() > 2; }));
  EXPECT_GT(shown.at(2).at(0).toLongLong(), 0);
  EXPECT_EQ(recorded(), std::make_pair(std::size_t{1}, std::size_t{1}));
}

// In the window's graph dock, a selected Case that the filter bar's task filter hides takes its details with it.
TEST_F(WindowTest, ACaseFilteredOutInTheGraphDockLeavesNoDetails) {
  QSignalSpy shown(window.get(), &MainWindow::reportShown);
  for (const char* task : {"gelu", "exp"}) {
    ASSERT_TRUE(window->selectTask(task));
    ASSERT_TRUE(window->loadCandidate(QString::fromStdString(embedded_candidates(task).front().name)));
    const int before = shown.count();
    window->evaluateAction()->trigger();
    ASSERT_TRUE(waitFor([&] { return shown.count() > before; }));
  }
  auto* graph = qobject_cast<graph::GraphWidget*>(window->graphDock()->widget());
  ASSERT_NE(graph, nullptr);
  graph->refresh();
  ASSERT_TRUE(graph->waitForLayout(60000));
  ASSERT_EQ(graph->nodeCount(), 2);
  int64_t gelu = 0;
  for (int r = 0; r < graph->model()->rowCount(); ++r)
    if (const auto* n = graph->model()->node(graph->model()->idAt(r)); n && n->row.task == "gelu") gelu = n->row.id;
  ASSERT_GT(gelu, 0);
  graph->selectCase(gelu);
  ASSERT_EQ(graph->details()->caseId(), gelu);
  auto* tasks = graph->findChild<QComboBox*>("filterTask");
  ASSERT_NE(tasks, nullptr);
  const int exp = tasks->findData("exp");
  ASSERT_GE(exp, 0);
  tasks->setCurrentIndex(exp);  // as a person picks it
  EXPECT_EQ(graph->visibleCount(), 1);
  EXPECT_FALSE(graph->details()->caseId().has_value());
  EXPECT_TRUE(graph->selectedCases().empty());
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  unsetenv("DBUS_SESSION_BUS_ADDRESS");  // no Secret Service here: the keys come from the environment
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-start-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
