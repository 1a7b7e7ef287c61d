// The Experience Graph browser driven offscreen: select, prune (retrieval changes), unprune, undo, filter,
// search, exports, live additions without a full re-layout, the layout cache, what the agent was shown, and
// recorded text shown as text, never as markup.
#include <gtest/gtest.h>

#include <QApplication>
#include <QAction>
#include <QFileInfo>
#include <QDir>
#include <QSettings>
#include <QFile>
#include <QLabel>
#include <QTextDocument>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>
#include <QXmlStreamReader>

#include <algorithm>

#include "agentview/agent_view.h"
#include "case_details.h"
#include "graph_layout.h"
#include "graph_widget.h"
#include "kope/memory/memory.h"
#include "kope/memory/retrieve.h"
#include "kope/store/db.h"
#include "kope/workspace/workspace.h"
#include "layout_service.h"
#include "test_support.h"

using namespace kope::workspace;

using namespace kope;
using namespace kope::graph;
using kope::memory::CaseInput;
using kope::memory::MemoryStore;

namespace {

struct Ids {
  int64_t a, b, c, d, e;
};

CaseInput mk(const std::string& task, std::optional<int64_t> prev, double a, bool correct, const std::string& thought,
             int64_t run, int64_t step) {
  CaseInput in;
  in.task = task;
  in.task_digest = "digest-" + task;
  in.device = "cpu";
  in.thought = thought;
  in.kernel_sha256 = task + std::to_string(step);
  in.kernel_name = task + "_" + std::to_string(step) + ".cpp";
  in.prev_case_id = prev;
  in.correct = correct;
  in.compiled = true;
  in.status = correct ? "passed" : "wrong";
  in.a = correct ? a : 0;
  in.c = correct ? 0.9 : 0;
  in.run_id = run;
  in.step = step;
  in.diff = "--- a/k.cpp\n+++ b/k.cpp\n@@ -1,2 +1,2 @@\n-  y[i] = slow(x[i]);\n+  y[i] = fast(x[i]);\n";
  in.feedback = correct ? "correct on all cases" : "case small: wrong: max rel err 3e-2";
  return in;
}

// gelu: A (1.5x) -> B (1.6x) -> D (1.2x); A -> C (incorrect). exp: E (1.1x).
Ids populate(const std::filesystem::path& dir) {
  Workspace ws = Workspace::open(dir);
  MemoryStore::ensure_schema(ws.handle());
  MemoryStore m(ws.handle());
  Ids ids{};
  ids.a = m.add_case(mk("gelu", std::nullopt, 1.5, true, "compute in fp32 so the loop vectorises", 1, 1));
  ids.b = m.add_case(mk("gelu", ids.a, 1.6, true, "Pade approximation of tanh clamped at 3", 1, 2));
  ids.c = m.add_case(mk("gelu", ids.a, 0, false, "unroll by 8 with four accumulators", 1, 3));
  ids.d = m.add_case(mk("gelu", ids.b, 1.2, true, "prefetch two cache lines ahead", 2, 4));
  ids.e = m.add_case(mk("exp", std::nullopt, 1.1, true, "Schraudolph exponent bits trick", 2, 5));
  return ids;
}

std::vector<int64_t> retrieved(const std::filesystem::path& dir, const std::string& task) {
  Workspace ws = Workspace::open(dir);  // its own connection: what the loop would see
  MemoryStore m(ws.handle());
  memory::RetrieveState s;
  s.task = task;
  s.device = "cpu";
  std::vector<int64_t> out;
  for (const auto& it : memory::retrieve(m, s)) out.push_back(it.case_id);
  return out;
}

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

struct Fixture : ::testing::Test {
  test::TempDir tmp;
  Ids ids{};
  std::unique_ptr<GraphWidget> w;
  void SetUp() override {
    ids = populate(tmp.path());
    w = std::make_unique<GraphWidget>();
    w->setPollInterval(0);
    w->setRelayoutDelay(-1);
    w->reasonProvider = [](const QString&) { return std::optional<QString>("a test reason"); };
    w->resize(1200, 800);
    w->openWorkspace(tmp.path());
    w->setPollInterval(0);
    ASSERT_TRUE(w->waitForLayout(30000));
  }
};

}  // namespace

TEST_F(Fixture, ShowsEveryCaseWithOneEdgeItem) {
  EXPECT_EQ(w->nodeCount(), 5);
  EXPECT_EQ(w->visibleCount(), 5);
  EXPECT_EQ(w->edges()->lineCount(), 3u);  // A-B, A-C, B-D
  // Children below their parent (y grows downwards after flipping Graphviz's axis).
  EXPECT_GT(w->positionOf(ids.b)->y(), w->positionOf(ids.a)->y());
  EXPECT_GT(w->positionOf(ids.d)->y(), w->positionOf(ids.b)->y());
  EXPECT_EQ(w->layoutService()->lastEngine(), "dot");
}

TEST_F(Fixture, SelectingShowsThoughtDiffAndHistory) {
  QSignalSpy spy(w.get(), &GraphWidget::caseSelected);
  w->selectCase(ids.b);
  ASSERT_EQ(spy.count(), 1);
  const QString t = w->details()->text();
  EXPECT_TRUE(t.contains("Pade approximation of tanh")) << t.toStdString();
  EXPECT_TRUE(t.contains("fast(x[i])"));
  EXPECT_TRUE(t.contains("never curated"));
  EXPECT_TRUE(w->agentView()->summaryText().contains("no transcript", Qt::CaseInsensitive));
}

TEST_F(Fixture, PruneExcludesFromRetrievalUnpruneAndUndoRestore) {
  ASSERT_TRUE(contains(retrieved(tmp.path(), "gelu"), ids.b));
  w->selectCase(ids.b);
  EXPECT_EQ(w->curate(CurationAct::Prune), 1);
  EXPECT_TRUE(w->item(ids.b)->data().row.pruned);
  EXPECT_LT(w->item(ids.b)->opacity(), 1.0);
  EXPECT_FALSE(contains(retrieved(tmp.path(), "gelu"), ids.b));
  w->undoStack()->undo();
  EXPECT_FALSE(w->item(ids.b)->data().row.pruned);
  EXPECT_TRUE(contains(retrieved(tmp.path(), "gelu"), ids.b));
  w->undoStack()->redo();
  EXPECT_FALSE(contains(retrieved(tmp.path(), "gelu"), ids.b));
  EXPECT_EQ(w->curate(CurationAct::Unprune), 1);
  EXPECT_TRUE(contains(retrieved(tmp.path(), "gelu"), ids.b));
  // Every act is recorded: prune, undo (unprune), redo (prune), unprune.
  const auto acts = w->store()->curation(ids.b);
  ASSERT_EQ(acts.size(), 4u);
  EXPECT_EQ(acts[0].act, "prune");
  EXPECT_EQ(acts[0].why, "a test reason");
  EXPECT_EQ(acts[1].act, "unprune");
  EXPECT_NE(acts[1].why.find("undo"), std::string::npos);
  w->selectCase(ids.b);
  EXPECT_TRUE(w->details()->text().contains("a test reason"));
}

TEST_F(Fixture, PruneSubtreeOfSeveralNodesAndUndo) {
  w->selectCase(ids.b);
  w->item(ids.e)->setSelected(true);  // Ctrl+click
  EXPECT_EQ(w->selectedCases().size(), 2u);
  EXPECT_EQ(w->curate(CurationAct::PruneSubtree), 3);  // B, D and E
  for (int64_t id : {ids.b, ids.d, ids.e}) EXPECT_TRUE(w->item(id)->data().row.pruned) << id;
  EXPECT_FALSE(w->item(ids.a)->data().row.pruned);
  EXPECT_FALSE(contains(retrieved(tmp.path(), "exp"), ids.e));
  w->undoStack()->undo();
  for (int64_t id : {ids.b, ids.d, ids.e}) EXPECT_FALSE(w->item(id)->data().row.pruned) << id;
  // A cancelled reason dialog changes nothing.
  w->reasonProvider = [](const QString&) { return std::optional<QString>(); };
  EXPECT_EQ(w->curate(CurationAct::Prune, {ids.a}), 0);
  EXPECT_FALSE(w->item(ids.a)->data().row.pruned);
}

TEST_F(Fixture, PinAndMarkCheatThenUndo) {
  EXPECT_EQ(w->curate(CurationAct::Pin, {ids.d}), 1);
  EXPECT_TRUE(w->item(ids.d)->data().row.pinned);
  EXPECT_EQ(w->curate(CurationAct::Cheat, {ids.a}), 1);
  EXPECT_EQ(w->item(ids.a)->data().row.flag, "cheat");
  EXPECT_FALSE(contains(retrieved(tmp.path(), "gelu"), ids.a));
  w->undoStack()->undo();
  EXPECT_EQ(w->item(ids.a)->data().row.flag, "");
  w->undoStack()->undo();
  EXPECT_FALSE(w->item(ids.d)->data().row.pinned);
}

TEST_F(Fixture, FilterByLabelTaskRunAndOrigin) {
  GraphFilter f;
  f.task = "gelu";
  w->setFilter(f);
  EXPECT_EQ(w->visibleCount(), 4);
  f.label = "incorrect";
  w->setFilter(f);
  EXPECT_EQ(w->visibleCount(), 1);
  EXPECT_TRUE(w->item(ids.c)->isVisible());
  EXPECT_EQ(w->edges()->lineCount(), 0u);
  f = {};
  f.run = 2;
  w->setFilter(f);
  EXPECT_EQ(w->visibleCount(), 2);  // D and E
  f = {};
  f.origin = "foreign";
  w->setFilter(f);
  EXPECT_EQ(w->visibleCount(), 0);
  w->setFilter({});
  EXPECT_EQ(w->visibleCount(), 5);
}

// A selected Case the filter hides is deselected: its details go, and a curation act cannot reach it unseen.
TEST_F(Fixture, FilteringOutTheSelectedCaseClearsItsDetails) {
  w->selectCase(ids.e);
  ASSERT_EQ(w->details()->caseId(), ids.e);
  GraphFilter f;
  f.task = "gelu";
  w->setFilter(f);
  EXPECT_FALSE(w->details()->caseId().has_value());
  EXPECT_TRUE(w->selectedCases().empty());
  EXPECT_EQ(w->curate(CurationAct::Pin), 0);
  EXPECT_FALSE(w->store()->get_case(ids.e)->pinned);
  // Of two selected, the one still shown keeps the pane.
  w->setFilter({});
  w->selectCase(ids.b);
  w->item(ids.e)->setSelected(true);
  w->setFilter(f);
  EXPECT_EQ(w->details()->caseId(), ids.b);
  EXPECT_EQ(w->selectedCases(), std::vector<int64_t>{ids.b});
}

TEST_F(Fixture, SearchByIdAndThought) {
  EXPECT_EQ(w->search("#" + QString::number(ids.d)), 1);
  EXPECT_EQ(w->selectedCases(), std::vector<int64_t>{ids.d});
  EXPECT_EQ(w->search("schraudolph"), 1);
  EXPECT_EQ(w->selectedCases(), std::vector<int64_t>{ids.e});
  EXPECT_TRUE(w->details()->text().contains("Schraudolph"));
  EXPECT_EQ(w->search("no such idea"), 0);
}

// The export dialog proposes the workspace's folder, then the folder of the last export (also after a restart),
// never the process's working folder.
TEST_F(Fixture, ExportProposesTheWorkspaceThenTheLastFolder) {
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((tmp / "settings").string()));
  QStringList proposed;
  const QString elsewhere = QString::fromStdString((tmp / "exports").string());
  QDir().mkpath(elsewhere);
  w->askExportPath = [&](const QString&, const QString& p, const QString&) {
    proposed << p;
    return QDir(elsewhere).filePath(QFileInfo(p).fileName());
  };
  QAction* png = nullptr;
  for (QAction* a : w->findChildren<QAction*>())
    if (a->text().startsWith("View as PNG")) png = a;
  ASSERT_NE(png, nullptr);
  png->trigger();
  ASSERT_EQ(proposed.size(), 1);
  EXPECT_EQ(QFileInfo(proposed[0]).absolutePath(), QFileInfo(QString::fromStdString(tmp.path().string())).absoluteFilePath());
  EXPECT_TRUE(QFileInfo::exists(QDir(elsewhere).filePath("experience-graph.png")));
  png->trigger();
  EXPECT_EQ(QFileInfo(proposed[1]).absolutePath(), elsewhere);
  GraphWidget again;
  again.openWorkspace(tmp.path());
  EXPECT_EQ(again.exportFolder(), elsewhere);
}

TEST_F(Fixture, ExportsPngSvgAndGraphml) {
  const QString png = QString::fromStdString((tmp / "g.png").string());
  const QString svg = QString::fromStdString((tmp / "g.svg").string());
  const QString gml = QString::fromStdString((tmp / "g.graphml").string());
  w->exportPng(png);
  w->exportSvg(svg);
  w->exportGraphml(gml);
  QImage img(png);
  ASSERT_FALSE(img.isNull());
  // Something besides the background was drawn.
  std::set<QRgb> colours;
  for (int y = 0; y < img.height(); y += 4)
    for (int x = 0; x < img.width(); x += 4) colours.insert(img.pixel(x, y));
  EXPECT_GT(colours.size(), 3u);
  for (const QString& p : {svg, gml}) {
    QFile f(p);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << p.toStdString();
    QXmlStreamReader x(&f);
    int elements = 0, nodes = 0;
    while (!x.atEnd()) {
      if (x.readNext() == QXmlStreamReader::StartElement) {
        ++elements;
        nodes += x.name() == u"node";
      }
    }
    EXPECT_FALSE(x.hasError()) << p.toStdString() << ": " << x.errorString().toStdString();
    EXPECT_GT(elements, 5);
    if (p == gml) { EXPECT_EQ(nodes, 5); }
  }
}

TEST_F(Fixture, LiveAdditionWithoutFullRelayout) {
  const int jobs = w->layoutService()->jobsComputed();
  const QPointF a_before = *w->positionOf(ids.a);
  const std::size_t edges = w->edges()->lineCount();
  int64_t id;
  {
    Workspace ws = Workspace::open(tmp.path());  // the loop's own connection
    MemoryStore m(ws.handle());
    id = m.add_case(mk("gelu", ids.d, 1.3, true, "a live case", 3, 6));
  }
  w->setPollInterval(50);
  ASSERT_TRUE(QTest::qWaitFor([&] { return w->item(id) != nullptr; }, 5000));
  ASSERT_NE(w->item(id), nullptr);
  EXPECT_EQ(w->nodeCount(), 6);
  EXPECT_GT(w->positionOf(id)->y(), w->positionOf(ids.d)->y());  // placed below its parent
  EXPECT_EQ(*w->positionOf(ids.a), a_before);                      // nothing else moved
  QApplication::processEvents();
  EXPECT_EQ(w->layoutService()->jobsComputed(), jobs);  // no layout job for the live addition
  EXPECT_FALSE(w->layoutService()->busy());
  EXPECT_EQ(w->edges()->lineCount(), edges + 1);
  // The background re-layout, when asked for, is one more job.
  w->relayout();
  ASSERT_TRUE(w->waitForLayout(30000));
  EXPECT_EQ(w->layoutService()->jobsComputed(), jobs + 1);
}

// A run's new Cases under a filter: each is shown or hidden as the filter says and only its edge is added (the
// widget filters the new nodes alone, not all of them again).
TEST_F(Fixture, NewCasesFollowTheFilterInForce) {
  GraphFilter f;
  f.task = "gelu";
  w->setFilter(f);
  ASSERT_EQ(w->visibleCount(), 4);
  ASSERT_EQ(w->edges()->lineCount(), 3u);
  int64_t g1 = 0, g2 = 0, x1 = 0;
  {
    Workspace ws = Workspace::open(tmp.path());
    MemoryStore m(ws.handle());
    g1 = m.add_case(mk("gelu", ids.d, 1.3, true, "a live gelu case", 3, 6));
    g2 = m.add_case(mk("gelu", g1, 1.4, true, "its child in the same reading", 3, 7));
    x1 = m.add_case(mk("exp", ids.e, 1.2, true, "a live exp case", 3, 8));
  }
  w->setPollInterval(50);
  ASSERT_TRUE(QTest::qWaitFor([&] { return w->item(x1) != nullptr; }, 5000));
  w->setPollInterval(0);
  ASSERT_NE(w->item(x1), nullptr);
  EXPECT_TRUE(w->item(g1)->isVisible());
  EXPECT_TRUE(w->item(g2)->isVisible());
  EXPECT_FALSE(w->item(x1)->isVisible());
  EXPECT_EQ(w->visibleCount(), 6);
  EXPECT_EQ(w->edges()->lineCount(), 5u);  // D-g1 and g1-g2 added; E-x1 is filtered out
  EXPECT_EQ(w->model()->choices().runs, (std::vector<int64_t>{1, 2, 3}));
  // A curation act's change under the filter keeps the edges; clearing the filter shows the exp Case and its edge.
  EXPECT_EQ(w->curate(CurationAct::Pin, {g1}), 1);
  EXPECT_TRUE(w->item(g1)->isVisible());
  EXPECT_EQ(w->edges()->lineCount(), 5u);
  w->setFilter({});
  EXPECT_TRUE(w->item(x1)->isVisible());
  EXPECT_EQ(w->edges()->lineCount(), 6u);
}

TEST_F(Fixture, LayoutIsCachedOnDiskForTheNextWindow) {
  GraphWidget w2;
  w2.setPollInterval(0);
  w2.openWorkspace(tmp.path());
  ASSERT_TRUE(w2.waitForLayout(30000));
  EXPECT_EQ(w2.layoutService()->jobsComputed(), 0);
  EXPECT_EQ(w2.positionOf(ids.d), w->positionOf(ids.d));
}

TEST(GraphLayout, ForestKeepsChildrenBelowAndApartAndIsDeterministic) {
  LayoutInput in;
  for (int i = 1; i <= 300; ++i) in.nodes.push_back({i, i == 1 || i % 50 == 0 ? std::nullopt : std::optional<int64_t>(i < 10 ? i - 1 : (i / 10)), kCellW, kCellH});
  ForestLayout f;
  Positions p = f.layout(in), q = f.layout(in);
  ASSERT_EQ(p.size(), 300u);
  for (const auto& n : in.nodes) {
    EXPECT_EQ(p[n.id].x, q[n.id].x);
    if (n.parent) { EXPECT_GT(p[n.id].y, p[*n.parent].y) << n.id; }
  }
  // No two cells overlap.
  std::vector<std::pair<double, double>> v;
  for (auto& [id, pt] : p) v.push_back({pt.x, pt.y});
  std::sort(v.begin(), v.end());
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = i + 1; j < v.size() && v[j].first - v[i].first < kCellW; ++j)
      EXPECT_GE(std::abs(v[j].second - v[i].second), kCellH) << i << " " << j;
  EXPECT_EQ(engine_for(500), "dot");
  EXPECT_EQ(engine_for(20000), "forest");
  EXPECT_NE(layout_hash(in, "dot"), layout_hash(in, "forest"));
}

TEST(GraphLayout, GraphvizDotPutsChildrenBelowAndSfdpRuns) {
  LayoutInput in;
  for (int i = 1; i <= 40; ++i) in.nodes.push_back({i, i == 1 ? std::nullopt : std::optional<int64_t>(i / 2), kCellW, kCellH});
  GraphvizLayout dot("dot");
  Positions p = dot.layout(in);
  ASSERT_EQ(p.size(), 40u);
  EXPECT_GT(p[2].y, p[1].y);
  // sfdp runs (seeded with start=7). Measured: within one process two runs with the same seed can still differ
  // (its overlap removal draws unseeded random numbers), which is why layouts are cached by content hash and
  // large graphs use ForestLayout, which is deterministic.
  GraphvizLayout s1("sfdp", 7);
  Positions a = s1.layout(in);
  EXPECT_EQ(a.size(), 40u);
}

TEST_F(Fixture, AgentViewShowsTranscriptAndLinksIntoTheGraph) {
  sqlite3* db = w->store()->db();
  // The LLM branch's transcript tables (core/agent/store.cpp, agent schema 1), filled as it would.
  store::exec(db, R"sql(
CREATE TABLE agent_attempts(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, task TEXT NOT NULL, device TEXT NOT NULL,
  iteration INTEGER NOT NULL, profile TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL, memory_arm TEXT NOT NULL,
  profile_json TEXT NOT NULL, budget_json TEXT NOT NULL, system_prompt TEXT NOT NULL, user_prompt TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'requested', reason TEXT NOT NULL DEFAULT '', evaluation_id INTEGER, created_at TEXT NOT NULL,
  finished_at TEXT);
CREATE TABLE agent_sections(attempt_id INTEGER NOT NULL REFERENCES agent_attempts(id), ord INTEGER NOT NULL,
  included INTEGER NOT NULL, name TEXT NOT NULL, tier TEXT NOT NULL, source_kind TEXT NOT NULL, source_id INTEGER NOT NULL,
  label TEXT NOT NULL, tokens INTEGER NOT NULL, rank REAL NOT NULL, PRIMARY KEY(attempt_id, ord));
CREATE TABLE agent_exchanges(attempt_id INTEGER PRIMARY KEY REFERENCES agent_attempts(id), request_json TEXT NOT NULL,
  answer TEXT NOT NULL, reasoning TEXT NOT NULL, finish_reason TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL, usage_from_server INTEGER NOT NULL, estimated_prompt_tokens INTEGER NOT NULL,
  latency_s REAL NOT NULL, retries INTEGER NOT NULL, retry_log TEXT NOT NULL, cost REAL, error TEXT NOT NULL);
INSERT INTO agent_attempts VALUES(1, 1, 'gelu', 'cpu', 2, 'test', 'openai', 'gpt-test', 'active', '{}',
  '{"W":8192,"S":300,"G":1024,"R":409,"B":6459,"hot":900,"warm":700,"cold":200,"Q_w":6,"Q_c":4}', 'sys', 'user',
  'evaluated', '', 77, '2026-12-02T00:00:00Z', NULL);
)sql");
  store::Stmt ins(db, "INSERT INTO agent_sections VALUES(1,?,?,?,?,?,?,?,?,?)");
  auto sec = [&](int ord, int inc, const char* name, const char* tier, const char* kind, int64_t src, const char* label,
                 int tokens) {
    ins.reset();
    ins.bind_all(int64_t{ord}, int64_t{inc}, std::string(name), std::string(tier), std::string(kind), src,
                 std::string(label), int64_t{tokens}, 1.0);
    ins.run();
  };
  sec(0, 1, "spec", "hot", "task", 0, "kernel spec", 600);
  sec(1, 1, "incumbent", "hot", "incumbent", 0, "incumbent code", 300);
  sec(2, 1, "experience", "warm", "case", ids.b, "case B", 700);
  sec(3, 1, "doc", "cold", "doc", 0, "vectorisation notes", 200);
  sec(4, 0, "experience", "warm", "failure", ids.c, "case C (left out)", 900);
  store::exec(db, "INSERT INTO agent_exchanges VALUES(1, '{}', 'use a Pade approximant', 'tanh dominates', 'stop', "
                  "1850, 420, 1, 1800, 3.5, 0, '', 0.0123, '')");
  auto* av = w->agentView();
  av->showEvaluation(77);
  const QString s = av->summaryText();
  EXPECT_TRUE(s.contains("gpt-test")) << s.toStdString();
  EXPECT_TRUE(s.contains("1850"));
  EXPECT_TRUE(s.contains("$0.0123"));
  // hot, warm, cold and the left-out group.
  QTreeWidget* t = av->tree();
  ASSERT_EQ(t->topLevelItemCount(), 4);
  EXPECT_TRUE(t->topLevelItem(0)->text(0).contains("900"));
  EXPECT_TRUE(t->topLevelItem(3)->text(0).contains("left out"));
  // Activating the Case entry selects it in the graph.
  QTreeWidgetItem* caseItem = t->topLevelItem(1)->child(0);
  emit t->itemActivated(caseItem, 0);
  EXPECT_EQ(w->selectedCases(), std::vector<int64_t>{ids.b});
  // An evaluation without a transcript.
  av->showEvaluation(4242);
  EXPECT_TRUE(av->summaryText().contains("no transcript"));
}

// Recorded text that looks like markup (an imported origin, a thought, a task name) is shown as text: every label
// is plain text, or rich text in which the markup arrived escaped.
TEST_F(Fixture, RecordedMarkupIsShownAsTextNeverRendered) {
  const std::string markup = "<b>x</b><img src=\"file:///etc/passwd\">";
  int64_t id = 0;
  {
    Workspace ws = Workspace::open(tmp.path());
    MemoryStore m(ws.handle());
    store::Stmt(ws.handle(), "INSERT INTO memory_origins(workspace_id, device, file, imported_at) VALUES(?,?,?,?)")
        .bind(1, markup).bind(2, "cpu").bind(3, "f").bind(4, "now").run();
    CaseInput in = mk("gelu", std::nullopt, 1.3, false, markup + " thought", 3, 6);
    in.origin_id = store::last_insert_id(ws.handle());
    in.kernel_name = markup;
    in.status = "wrong";
    in.feedback = markup;
    id = m.add_case(in);
  }
  w->refresh();
  ASSERT_TRUE(w->waitForLayout(30000));
  w->selectCase(id);
  w->search(QString::fromStdString(markup));
  int checked = 0;
  for (QLabel* l : w->findChildren<QLabel*>()) {
    const bool rich = l->textFormat() == Qt::RichText ||
                      (l->textFormat() == Qt::AutoText && Qt::mightBeRichText(l->text()));
    if (!rich) continue;
    ++checked;
    EXPECT_FALSE(l->text().contains("<img")) << l->objectName().toStdString() << ": " << l->text().toStdString();
    EXPECT_FALSE(l->text().contains("<b>x</b>")) << l->objectName().toStdString() << ": " << l->text().toStdString();
  }
  EXPECT_GT(checked, 0) << "the Case title is rich text: its escaping was checked";
  EXPECT_TRUE(w->details()->text().contains(QString::fromStdString(markup))) << "shown, as text";
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
