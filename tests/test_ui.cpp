// The workbench window, built for real under the offscreen platform and driven as a user would.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>

#include <functional>

#include "engine.h"
#include "i18n.h"
#include "kernel_editor.h"
#include "kope/suite.h"
#include "main_window.h"
#include "speedup_chart.h"
#include "test_support.h"

using namespace kope;
using kope::ui::MainWindow;

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

class UiTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<MainWindow> window;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    EvalOptions o = test::quick_options();
    window->setEvalOptions(o);
    window->show();
  }

  // Evaluates the editor's text on `cases` of the current task and waits for the report.
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
};

}  // namespace

TEST_F(UiTest, ListsTheSuiteAndShowsTheSelectedTask) {
  EXPECT_EQ(window->taskList()->count(), 24);  // the embedded L1 and L2 tasks
  ASSERT_TRUE(window->selectTask("swi_glu"));
  ASSERT_NE(window->currentTask(), nullptr);
  EXPECT_EQ(window->currentTask()->name, "swi_glu");
  EXPECT_GE(window->candidateBox()->count(), 2);
  EXPECT_FALSE(window->selectTask("nosuch"));
}

TEST_F(UiTest, EvaluatesAShippedKernelAndRecordsIt) {
  ASSERT_TRUE(window->selectTask("gelu"));
  ASSERT_TRUE(window->loadCandidate("gelu/02_erfc_vectorised.cpp"));
  EXPECT_NE(window->editor()->text().indexOf("kope_kernel"), -1);
  ASSERT_TRUE(evaluateAndWait({"n1", "n1000"}));
  QTableWidget* t = window->caseTable();
  ASSERT_EQ(t->rowCount(), 2);
  EXPECT_EQ(t->item(0, 0)->text(), "n1");
  EXPECT_EQ(t->item(0, 1)->text(), "passed");
  EXPECT_EQ(t->item(1, 1)->text(), "passed");
  EXPECT_TRUE(t->item(1, 5)->text().endsWith("x")) << t->item(1, 5)->text().toStdString();
  EXPECT_NE(t->item(1, 5)->toolTip().indexOf("95%"), -1) << t->item(1, 5)->toolTip().toStdString();
  EXPECT_NE(window->summaryLabel()->text().indexOf("passed"), -1);
  EXPECT_EQ(window->chart()->values().size(), 2);
  EXPECT_GT(window->chart()->values()[1], 0.0);
  // the history tab shows the recorded evaluation
  ASSERT_TRUE(waitFor([&] { return window->historyTable()->rowCount() == 1; }));
  EXPECT_EQ(window->historyTable()->item(0, 2)->text(), "passed");
  EXPECT_EQ(window->evalOptions().reps, test::quick_options().reps);
  if (const char* shot = std::getenv("KOPE_UI_SCREENSHOT")) {
    window->grab().save(QString(shot) + "_cases.png");
    window->tabs()->setCurrentWidget(window->chart());
    window->grab().save(QString(shot) + "_chart.png");
  }
}

TEST_F(UiTest, CompileErrorsBecomeClickableDiagnostics) {
  ASSERT_TRUE(window->selectTask("exp"));
  window->editor()->setText("#include \"kope_kernel.h\"\n\nint kope_kernel(const kope_args* a) {\n  return no_such;\n}\n");
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  EXPECT_EQ(window->tabs()->currentWidget(), window->diagnosticsList());
  QListWidget* d = window->diagnosticsList();
  ASSERT_GE(d->count(), 1);
  EXPECT_NE(d->item(0)->text().indexOf("untitled.cpp:4:"), -1) << d->item(0)->text().toStdString();
  EXPECT_EQ(window->editor()->diagnosticMarkCount(), 1);
  window->editor()->setCursorPosition(0, 0);
  emit d->itemActivated(d->item(0));
  int line = -1, col = -1;
  window->editor()->getCursorPosition(&line, &col);
  EXPECT_EQ(line, 3);  // 0-based: the fourth line
}

TEST_F(UiTest, WrongKernelShowsTheFailingCase) {
  ASSERT_TRUE(window->selectTask("mish"));
  window->editor()->setText(QString::fromStdString(
      "#include \"kope_kernel.h\"\nint kope_kernel(const kope_args* a) {\n"
      "  const float* x = (const float*)a->inputs[0].data; float* y = (float*)a->outputs[0].data;\n"
      "  for (int64_t i = 0; i < a->inputs[0].numel; ++i) y[i] = x[i];\n  return 0;\n}\n"));
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  QTableWidget* t = window->caseTable();
  ASSERT_EQ(t->rowCount(), 1);
  EXPECT_EQ(t->item(0, 1)->text(), "wrong");
  EXPECT_NE(t->item(0, 6)->text().indexOf("worst at index"), -1);
  EXPECT_EQ(window->chart()->values().at(0), 0.0);
}

TEST_F(UiTest, RunsTheLoopAndStreamsAttempts) {
  ASSERT_TRUE(window->selectTask("masked_scale"));
  EvalOptions o = test::quick_options();
  o.cases = {"n1", "n1023"};
  window->setEvalOptions(o);
  QSignalSpy done(window.get(), &MainWindow::loopDone);
  window->runLoopAction()->trigger();
  ASSERT_TRUE(waitFor([&] { return done.count() > 0; }));
  const int shipped = static_cast<int>(embedded_candidates("masked_scale").size());
  EXPECT_EQ(window->loopTable()->rowCount(), shipped);
  EXPECT_TRUE(waitFor([&] { return window->historyTable()->rowCount() == shipped; }));
}

TEST_F(UiTest, HistoryRowLoadsThatKernelVersion) {
  ASSERT_TRUE(window->selectTask("gelu"));
  const QString src = "#include \"kope_kernel.h\"\n// version one\nint kope_kernel(const kope_args*) { return 1; }\n";
  window->editor()->setText(src);
  ASSERT_TRUE(evaluateAndWait({"n1"}));
  ASSERT_TRUE(waitFor([&] { return window->historyTable()->rowCount() == 1; }));
  window->editor()->setText("something else");
  QSignalSpy loaded(window->engine(), &ui::Engine::kernelLoaded);
  emit window->historyTable()->cellActivated(0, 0);
  ASSERT_TRUE(waitFor([&] { return loaded.count() > 0; }));
  EXPECT_EQ(window->editor()->text(), src);
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
}

TEST(Translation, ChineseIsEmbeddedAndApplies) {
  test::TempDir dir;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  ASSERT_TRUE(ui::install_translation(*QCoreApplication::instance(), "zh_CN"));
  {
    MainWindow w(Suite::embedded(), dir / "ws");
    EXPECT_EQ(w.evaluateAction()->text(), QString::fromUtf8("评测(&E)"));
    EXPECT_EQ(w.windowTitle(), QString::fromUtf8("Kope 工作台"));
  }
  ASSERT_TRUE(ui::install_translation(*QCoreApplication::instance(), "en"));
  MainWindow w(Suite::embedded(), dir / "ws");
  EXPECT_EQ(w.evaluateAction()->text(), "&Evaluate");
  EXPECT_FALSE(ui::install_translation(*QCoreApplication::instance(), "xx_YY"));
}

TEST(Translation, EveryChineseStringIsTranslated) {
  QFile ts(QString(KOPE_TRANSLATIONS_DIR) + "/kope_zh_CN.ts");
  ASSERT_TRUE(ts.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(ts.readAll());
  EXPECT_GT(text.count("<message>"), 50);
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
