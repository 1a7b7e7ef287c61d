// From any attempt to everything about it (issue 20 item 2), in the real window under the offscreen platform: an
// LLM run against a scripted model proposes two shipped gelu kernels; a double-click (or the context menu) on an
// attempt in the run controller, on its Case's node in the graph, or on its History row opens the same things
// through the one AttemptActions: the kernel in the editor, the diff against its parent, its results, its LLM
// transcript, its Case selected in the graph; and "compare with incumbent" fills the comparison pane.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include <functional>

#include "agentview/agent_view.h"
#include "attempt_actions.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "graph/graph_widget.h"
#include "kope/memory/memory.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "scripted_llm_server.h"
#include "test_support.h"
#include "views/attempt_pane.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/history_pane.h"
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
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

std::string kernelReply(const std::string& source) {
  return "Here is a kernel.\n\n```cpp\n" + source + (source.back() == '\n' ? "" : "\n") + "```\n";
}

// A person's double-click on a row: QTest's sends the second press alone, which an item view takes for a press
// unless the first came before it.
void doubleClick(QAbstractItemView* v, const QModelIndex& i) {
  const QPoint at = v->visualRect(i).center();
  QTest::mouseClick(v->viewport(), Qt::LeftButton, {}, at);
  QTest::mouseDClick(v->viewport(), Qt::LeftButton, {}, at);
}

// Opens the context menu that `open` brings up, triggers the action whose text starts with `pick`, and returns
// the texts of the menu's actions.
QStringList pickFromMenu(const std::function<void()>& open, const QString& pick) {
  QStringList texts;
  QTimer::singleShot(50, [&] {
    auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
    if (!menu) return;
    QAction* chosen = nullptr;
    for (QAction* a : menu->actions()) {
      if (a->isSeparator()) continue;
      texts << a->text();
      if (!chosen && a->text().startsWith(pick) && a->isEnabled()) chosen = a;
    }
    menu->close();
    if (chosen) chosen->trigger();
  });
  open();
  return texts;
}

class AttemptTest : public ::testing::Test {
 protected:
  test::TempDir dir;
  std::unique_ptr<test::ScriptedServer> srv;
  std::unique_ptr<MainWindow> window;
  RunController* run = nullptr;
  std::vector<std::string> sources;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    for (const auto& c : embedded_candidates("gelu")) sources.push_back(c.source);
    ASSERT_GE(sources.size(), 2u);
    srv = std::make_unique<test::ScriptedServer>(std::vector<test::ScriptedResponse>{
        test::sse_response({test::openai_stream({kernelReply(sources[0])})}),
        test::sse_response({test::openai_stream({kernelReply(sources[1])})})});
    test::write_text(dir / "cfg" / "kope" / "llm.json",
                     R"({"profiles": {"scripted": {"provider": "openai", "base_url": ")" + srv->url() +
                         R"(/v1", "model": "m", "context_window": 16000, "max_output_tokens": 4000}}})");
    setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
    window = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    window->askUnsaved = [](const QString&) { return QMessageBox::Discard; };
    EvalOptions o = test::quick_options();
    o.cases = {"n1"};
    window->setEvalOptions(o);
    window->resize(1600, 1000);
    window->show();
    run = window->runController();
    ASSERT_TRUE(window->selectTask("gelu"));
    // Two LLM attempts, each with a kernel, an evaluation, a transcript and a Case.
    run->policyBox()->setEditText("scripted");
    run->memoryBox()->setCurrentText("active");
    run->maxAttempts()->setValue(2);
    QSignalSpy finished(run, &RunController::runFinished);
    run->startButton()->click();
    ASSERT_TRUE(waitFor([&] { return finished.count() > 0; }));
    ASSERT_EQ(run->attempts()->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
      ASSERT_NE(attempt(r).evaluation_id, 0) << attempt(r).status << " " << attempt(r).message;
      ASSERT_NE(attempt(r).transcript_id, 0);
    }
  }
  void TearDown() override {
    if (run->control()) run->control()->stop();
    waitFor([&] { return !window->engine()->busy(); });
    unsetenv("XDG_CONFIG_HOME");
  }
  const loop::Attempt& attempt(int row) { return run->attempts()->at(row).attempt; }
  int64_t caseOf(int64_t evaluation) {
    Workspace ws = Workspace::open(dir / "ws");
    return memory::MemoryStore(ws.handle()).case_of_evaluation(evaluation).value_or(0);
  }
  // The kernel as recorded with the attempt's evaluation.
  std::string sourceOf(int row) {
    Workspace ws = Workspace::open(dir / "ws");
    return ws.kernel_source(ws.evaluation(attempt(row).evaluation_id)->kernel_id).value_or("");
  }

  // What opening attempt `row` shows, wherever it was opened from.
  void expectOpened(int row) {
    const loop::Attempt& a = attempt(row);
    SCOPED_TRACE("attempt " + std::to_string(row));
    // the kernel in the editor, its results in the results panes and the Attempt pane
    EXPECT_EQ(window->editor()->text().toStdString(), sourceOf(row));
    EXPECT_NE(sourceOf(row).find(sources[static_cast<std::size_t>(row)].substr(0, 200)), std::string::npos);
    EXPECT_GT(window->casesPane()->model()->rowCount(), 0);
    AttemptPane* pane = window->attemptPane();
    EXPECT_EQ(window->tabs()->currentWidget(), pane);
    EXPECT_EQ(pane->shown().ref.evaluation_id, a.evaluation_id);
    EXPECT_EQ(pane->shown().ref.transcript_id, a.transcript_id);
    EXPECT_GT(pane->results()->rowCount(), 0);
    // the diff against its parent: the first attempt's parent is the baseline, the second's the incumbent then
    const QString diff = pane->diffView()->toPlainText();
    EXPECT_TRUE(diff.contains("+++ b/")) << diff.left(300).toStdString();
    // the LLM transcript of that attempt
    EXPECT_TRUE(pane->transcript()->summaryText().contains(QString("Attempt %1").arg(a.transcript_id)))
        << pane->transcript()->summaryText().toStdString();
    // its Case, selected in the graph
    const int64_t c = caseOf(a.evaluation_id);
    ASSERT_NE(c, 0);
    EXPECT_EQ(pane->shown().ref.case_id, c);
    EXPECT_EQ(window->graph()->selectedCases(), std::vector<int64_t>{c});
  }
};

}  // namespace

TEST_F(AttemptTest, DoubleClickOnTheRunControllersAttemptOpensEverythingAboutIt) {
  QTableView* v = run->attemptView();
  window->runDock()->raise();
  for (int row : {1, 0}) {
    const QModelIndex i = run->attempts()->index(row, 0);
    v->scrollTo(i);
    ASSERT_FALSE(v->visualRect(i).isEmpty()) << "the attempts table is in sight";
    doubleClick(v, i);
    expectOpened(row);
  }
  // the context menu: every act; "compare with incumbent" fills the comparison pane
  QSignalSpy compared(window.get(), &MainWindow::comparisonShown);
  QSignalSpy failed(window.get(), &MainWindow::errorShown);
  const QModelIndex i = run->attempts()->index(0, 0);
  const QStringList texts = pickFromMenu([&] { emit v->customContextMenuRequested(v->visualRect(i).center()); },
                                         "Compare with the incumbent");
  EXPECT_EQ(texts.size(), 7) << texts.join("|").toStdString();
  Workspace ws = Workspace::open(dir / "ws");
  const auto inc = ws.incumbent("gelu", "cpu");
  if (inc && inc->evaluation_id != attempt(0).evaluation_id) {
    ASSERT_TRUE(waitFor([&] { return compared.count() > 0; }, 5000));
    EXPECT_EQ(window->comparePane()->comparison().a_evaluation, inc->evaluation_id);
    EXPECT_EQ(window->comparePane()->comparison().b_evaluation, attempt(0).evaluation_id);
  } else {  // attempt 0 is the incumbent (or there is none): said, not silently ignored
    ASSERT_TRUE(waitFor([&] { return failed.count() > 0; }, 5000));
    EXPECT_EQ(compared.count(), 0);
  }
}

TEST_F(AttemptTest, DoubleClickOnACaseInTheGraphOpensItsAttempt) {
  kope::graph::GraphWidget* g = window->graph();
  window->graphDock()->raise();
  g->refresh();
  ASSERT_TRUE(g->waitForLayout());
  for (int row : {0, 1}) {
    const int64_t c = caseOf(attempt(row).evaluation_id);
    ASSERT_NE(g->item(c), nullptr);
    g->selectCase(c, true);
    QCoreApplication::processEvents();
    const QPoint at = g->view()->mapFromScene(*g->positionOf(c));
    QTest::mouseDClick(g->view()->viewport(), Qt::LeftButton, {}, at);
    expectOpened(row);
  }
  // the Case's context menu offers the attempt's acts above the curation
  const int64_t c = caseOf(attempt(1).evaluation_id);
  const QPoint at = g->view()->mapFromScene(*g->positionOf(c));
  const QStringList texts = pickFromMenu([&] {
    QContextMenuEvent e(QContextMenuEvent::Mouse, at, g->view()->viewport()->mapToGlobal(at));
    QApplication::sendEvent(g->view()->viewport(), &e);
  }, "Its LLM transcript");
  ASSERT_FALSE(texts.isEmpty());
  EXPECT_TRUE(texts.front().startsWith("Open the attempt")) << texts.join("|").toStdString();
  EXPECT_EQ(window->attemptPane()->parts()->currentWidget(), window->attemptPane()->transcript());
}

TEST_F(AttemptTest, DoubleClickOnAHistoryRowOpensItsAttempt) {
  HistoryPane* h = window->historyPane();
  window->tabs()->setCurrentWidget(h);
  ASSERT_TRUE(waitFor([&] {
    int found = 0;
    for (const auto& r : h->model()->rows()) found += r.id == attempt(0).evaluation_id || r.id == attempt(1).evaluation_id;
    return found == 2;
  }));
  for (int row : {0, 1}) {
    window->tabs()->setCurrentWidget(h);
    int r = 0;
    while (h->model()->at(r).id != attempt(row).evaluation_id) ++r;
    const QModelIndex i = h->model()->index(r, 0);
    doubleClick(h->view(), i);
    expectOpened(row);
  }
  // the context menu: the kernel alone
  window->tabs()->setCurrentWidget(h);
  window->editor()->setText("// something else");
  window->editor()->setModified(false);
  const QModelIndex i = h->model()->index(0, 0);
  pickFromMenu([&] { emit h->view()->customContextMenuRequested(h->view()->visualRect(i).center()); },
               "Open its kernel");
  const int64_t id = h->model()->at(0).id;
  EXPECT_EQ(window->editor()->text().toStdString(), sourceOf(id == attempt(0).evaluation_id ? 0 : 1));
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-attempt-test");
  qRegisterMetaType<quint64>("quint64");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
