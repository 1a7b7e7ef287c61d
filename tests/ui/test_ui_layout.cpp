// The window's layout, measured offscreen at 1024x700 (the smallest size it promises to be usable at) and at
// 2560x1440: the attempts table shows several rows, no toolbar hides its actions behind an overflow arrow, the
// graph's buttons and filters are whole and inside the dock, the Case's buttons are not cut, the agent view's
// section column is as wide as its text, the graph fits again when enlarged, and the dock layout and splitter
// handles come back after a restart.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QListView>
#include <QStackedWidget>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>

#include <functional>

#include "agentview/agent_view.h"
#include "graph/case_details.h"
#include "graph/filter_bar.h"
#include "graph/graph_widget.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "test_support.h"
#include "views/run_controller.h"

using namespace kope;
using namespace kope::ui;

namespace {

void settle() {
  for (int i = 0; i < 10; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

// Three Cases of gelu and an LLM attempt whose prompt shows two of them.
struct Recorded {
  int64_t caseId = 0, attemptId = 0;
};

Recorded record(const std::filesystem::path& dir) {
  workspace::Workspace ws = workspace::Workspace::open(dir);
  memory::MemoryStore::ensure_schema(ws.handle());
  memory::MemoryStore m(ws.handle());
  auto mk = [](std::optional<int64_t> prev, int64_t step) {
    memory::CaseInput in;
    in.task = "gelu";
    in.task_digest = "digest-gelu";
    in.device = "cpu";
    in.thought = "Pade approximation of tanh clamped at 3";
    in.kernel_sha256 = "sha" + std::to_string(step);
    in.kernel_name = "gelu_" + std::to_string(step) + ".cpp";
    in.prev_case_id = prev;
    in.correct = true;
    in.compiled = true;
    in.status = "passed";
    in.a = 1.2 + 0.1 * step;
    in.c = 0.9;
    in.run_id = 1;
    in.step = step;
    return in;
  };
  Recorded r;
  const int64_t root = m.add_case(mk(std::nullopt, 1));
  m.add_case(mk(root, 2));
  r.caseId = m.add_case(mk(root, 3));
  agent::AgentStore a = agent::AgentStore::open(dir);
  agent::AttemptHeader h;
  h.run_id = 1;
  h.task = "gelu";
  h.device = "cpu";
  h.provider = "openai";
  h.model = "gpt-test";
  h.arm = "active";
  agent::Prompt p;
  auto section = [](agent::Tier tier, const char* kind, int64_t id, const std::string& label) {
    agent::Section s;
    s.name = kind;
    s.tier = tier;
    s.source_kind = kind;
    s.source_id = id;
    s.label = label;
    s.tokens = 700;
    return s;
  };
  p.sections = {section(agent::Tier::Hot, "task", 0, "task specification (gelu, fp32, 4 cases)"),
                section(agent::Tier::Warm, "case", r.caseId, "Case #3: Pade approximation of tanh clamped at 3")};
  r.attemptId = a.begin_attempt(h, p);
  return r;
}

class Layout : public ::testing::Test {
 protected:
  test::TempDir dir;
  Recorded rec;
  std::unique_ptr<MainWindow> w;
  graph::GraphWidget* graph = nullptr;

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
    rec = record(dir / "ws");
    open();
  }
  void open() {
    w = std::make_unique<MainWindow>(Suite::embedded(), dir / "ws");
    graph = qobject_cast<graph::GraphWidget*>(w->graphDock()->widget());
    ASSERT_NE(graph, nullptr);
    graph->setPollInterval(0);
    w->show();
    ASSERT_TRUE(graph->waitForLayout(60000));
  }
  void sized(int width, int height) {
    w->resize(width, height);
    settle();
  }
  // Whether `child` lies wholly inside `area` (both on screen).
  static bool inside(QWidget* child, QWidget* area) {
    const QRect r(child->mapTo(area->window(), QPoint(0, 0)), child->size());
    const QRect a(area->mapTo(area->window(), QPoint(0, 0)), area->size());
    return a.contains(r);
  }
};

}  // namespace

TEST_F(Layout, AtTheSmallestWindowTheAttemptsTableShowsSeveralRows) {
  sized(1024, 700);
  w->runDock()->raise();
  settle();
  QTableView* attempts = w->runController()->attemptView();
  ASSERT_TRUE(attempts->isVisible());
  const int rows = attempts->viewport()->height() / attempts->verticalHeader()->defaultSectionSize();
  QString panes;
  for (int h : w->runController()->findChild<QSplitter*>("run-split")->sizes()) panes += QString::number(h) + " ";
  EXPECT_GE(rows, 5) << "viewport " << attempts->viewport()->height() << " px, rows of "
                     << attempts->verticalHeader()->defaultSectionSize() << " px; the run controller's panes: "
                     << panes.toStdString();
}

TEST_F(Layout, TaskNamesAreWholeAndTheDocksGrowWithTheWindow) {
  sized(1024, 700);
  w->runDock()->raise();
  settle();
  QList<QListView*> lists = {w->taskView()};
  lists += w->runController()->findChildren<QListView*>();
  for (QListView* list : lists) {
    const int longest = static_cast<QAbstractItemView*>(list)->sizeHintForColumn(0);
    EXPECT_GE(list->viewport()->width(), longest) << list->objectName().toStdString() << ": task names cut";
  }
  const int small = w->runDock()->width();
  sized(2560, 1440);
  EXPECT_GE(w->runDock()->width(), small * 2) << "the run controller kept its 1024-wide width at 2560";
  EXPECT_LE(w->runDock()->width(), 2560 / 2);
  sized(1024, 700);
  QString widest;  // what holds the centre wide, when it pushes the run controller under its minimum
  for (QStackedWidget* pages : w->centralWidget()->findChildren<QStackedWidget*>())
    for (int i = 0; i < pages->count(); ++i)
      widest += QString(" %1=%2").arg(pages->widget(i)->objectName()).arg(pages->widget(i)->minimumSizeHint().width());
  EXPECT_GE(w->runDock()->width(), MainWindow::kRightDockMin - 8)  // less the separator's few pixels
      << "the centre's pages want:" << widest.toStdString();
}

TEST_F(Layout, NoToolbarHidesItsActionsBehindAnOverflowArrow) {
  for (QSize size : {QSize(1024, 700), QSize(2560, 1440)}) {
    sized(size.width(), size.height());
    for (QToolBar* bar : w->findChildren<QToolBar*>()) {
      if (!bar->isVisible()) continue;
      auto* more = bar->findChild<QToolButton*>("qt_toolbar_ext_button");
      EXPECT_FALSE(more && more->isVisible()) << bar->objectName().toStdString() << " overflows at " << size.width();
    }
  }
}

TEST_F(Layout, TheGraphsFiltersAndButtonsAreWholeInsideTheDock) {
  for (QSize size : {QSize(1024, 700), QSize(2560, 1440)}) {
    sized(size.width(), size.height());
    w->graphDock()->raise();
    settle();
    graph::FilterBar* bar = graph->filterBar();
    int buttons = 0;
    for (QWidget* c : bar->findChildren<QWidget*>()) {
      if (!qobject_cast<QAbstractButton*>(c) && !qobject_cast<QComboBox*>(c) && !qobject_cast<QLineEdit*>(c)) continue;
      if (c->parent() && qobject_cast<QLineEdit*>(c->parent())) continue;  // the search field's clear button
      buttons += qobject_cast<QToolButton*>(c) != nullptr;
      EXPECT_TRUE(c->isVisible()) << c->metaObject()->className() << " hidden at " << size.width();
      EXPECT_TRUE(inside(c, graph)) << c->metaObject()->className() << " " << c->objectName().toStdString()
                                    << " outside the graph dock at " << size.width();
      EXPECT_GE(c->width(), c->minimumSizeHint().width()) << c->metaObject()->className() << " cut at " << size.width();
    }
    EXPECT_GE(buttons, 7);  // fit, zoom in and out, re-layout, export, undo, redo
    graph->selectCase(rec.caseId);
    settle();
    for (QPushButton* b : graph->details()->findChildren<QPushButton*>()) {
      EXPECT_GE(b->width(), b->sizeHint().width()) << b->text().toStdString() << " cut at " << size.width();
      EXPECT_TRUE(inside(b, graph->details())) << b->text().toStdString() << " outside at " << size.width();
    }
  }
}

TEST_F(Layout, TheAgentViewsSectionColumnIsAsWideAsItsText) {
  for (QSize size : {QSize(1024, 700), QSize(2560, 1440)}) {
    sized(size.width(), size.height());
    w->graphDock()->raise();
    graph->agentView()->showAttempt(rec.attemptId);
    graph->findChild<QTabWidget*>("graph-side")->setCurrentWidget(graph->agentView());
    settle();
    QTreeWidget* tree = graph->agentView()->tree();
    ASSERT_TRUE(tree->isVisible());
    EXPECT_GE(tree->header()->sectionSize(0), graph->agentView()->sectionColumnContentWidth()) << "at " << size.width();
    EXPECT_GE(tree->header()->sectionSize(0), tree->fontMetrics().horizontalAdvance("Case #3: Pade approximation"));
  }
}

TEST_F(Layout, TheGraphFitsAgainWhenEnlargedUntilAPersonZooms) {
  sized(1024, 700);
  w->graphDock()->raise();
  settle();
  graph->view()->fit();
  const double small = graph->view()->zoom();
  const QSize before = graph->view()->viewport()->size();
  sized(2560, 1440);
  ASSERT_NE(graph->view()->viewport()->size(), before);
  const double enlarged = graph->view()->zoom();
  EXPECT_NE(enlarged, small);
  graph->view()->fit();
  EXPECT_DOUBLE_EQ(graph->view()->zoom(), enlarged) << "the enlarged view was not fitted again";
  graph->view()->zoomBy(1.25);
  const double chosen = graph->view()->zoom();
  sized(1024, 700);
  EXPECT_DOUBLE_EQ(graph->view()->zoom(), chosen) << "a person's zoom was replaced by a fit";
}

TEST_F(Layout, DocksAndSplittersComeBackAfterARestart) {
  sized(1300, 850);
  w->graphDock()->raise();
  auto* centre = w->findChild<QSplitter*>("centre-split");
  auto* graphSplit = graph->findChild<QSplitter*>("graph-split");
  ASSERT_NE(centre, nullptr);
  ASSERT_NE(graphSplit, nullptr);
  const int total = centre->sizes()[0] + centre->sizes()[1];
  centre->setSizes({total / 4, total - total / 4});
  const int gtotal = graphSplit->sizes()[0] + graphSplit->sizes()[1];
  graphSplit->setSizes({gtotal / 3, gtotal - gtotal / 3});
  settle();
  const QList<int> centreSizes = centre->sizes(), graphSizes = graphSplit->sizes();
  ASSERT_TRUE(w->close());
  w.reset();
  open();
  settle();
  EXPECT_EQ(w->size(), QSize(1300, 850));
  // The handles where they were left, as a share of the splitter (a pixel or two of the window's frame aside).
  auto share = [](const QList<int>& sizes) { return double(sizes[0]) / (sizes[0] + sizes[1]); };
  EXPECT_NEAR(share(w->findChild<QSplitter*>("centre-split")->sizes()), share(centreSizes), 0.02);
  EXPECT_NEAR(share(graph->findChild<QSplitter*>("graph-split")->sizes()), share(graphSizes), 0.02);
  EXPECT_FALSE(w->graphDock()->visibleRegion().isEmpty()) << "the graph dock was the one raised";
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-layout-test");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
