// The graph browser's models without windows (ui/graph: kope_graph_models), under QAbstractItemModelTester: the
// Cases as rows in id order, reloads that add, change and remove rows (never a reset), the filter and search,
// and curation through MemoryStore with undo and redo. The tests read roles and ids, never painted text.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QSignalSpy>
#include <QUndoStack>

#include <algorithm>
#include <memory>

#include "curation.h"
#include "graph_model.h"
#include "kope/memory/memory.h"
#include "kope/memory/retrieve.h"
#include "kope/workspace/workspace.h"
#include "test_support.h"

using namespace kope::workspace;

using namespace kope;
using namespace kope::graph;
using kope::memory::CaseInput;
using kope::memory::MemoryStore;

namespace {

std::unique_ptr<QAbstractItemModelTester> tester(QAbstractItemModel& m) {
  return std::make_unique<QAbstractItemModelTester>(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
}

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
  return in;
}

std::vector<int64_t> retrieved(MemoryStore& m, const std::string& task) {
  memory::RetrieveState s;
  s.task = task;
  s.device = "cpu";
  std::vector<int64_t> out;
  for (const auto& it : memory::retrieve(m, s)) out.push_back(it.case_id);
  return out;
}

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// gelu: A (1.5x) -> B (1.6x) -> D (1.2x); A -> C (incorrect). exp: E (1.1x). As in test_ui_graph.
struct GraphModelTest : ::testing::Test {
  test::TempDir tmp;
  Workspace ws = Workspace::open(tmp.path());
  std::unique_ptr<MemoryStore> mem;
  int64_t a = 0, b = 0, c = 0, d = 0, e = 0;
  GraphModel model;
  CaseMatcher match;
  std::unique_ptr<QAbstractItemModelTester> modelTester = tester(model);
  std::vector<int64_t> shownIds() const {  // what the graph widget shows under `match`
    std::vector<int64_t> out;
    for (int64_t id : model.ids())
      if (match.accepts(*model.node(id))) out.push_back(id);
    return out;
  }

  void SetUp() override {
    MemoryStore::ensure_schema(ws.handle());
    mem = std::make_unique<MemoryStore>(ws.handle());
    a = mem->add_case(mk("gelu", std::nullopt, 1.5, true, "compute in fp32 so the loop vectorises", 1, 1));
    b = mem->add_case(mk("gelu", a, 1.6, true, "Pade approximation of tanh clamped at 3", 1, 2));
    c = mem->add_case(mk("gelu", a, 0, false, "unroll by 8 with four accumulators", 1, 3));
    d = mem->add_case(mk("gelu", b, 1.2, true, "prefetch two cache lines ahead", 2, 4));
    e = mem->add_case(mk("exp", std::nullopt, 1.1, true, "Schraudolph exponent bits trick", 2, 5));
    model.load(*mem, ws);
  }
  std::vector<int64_t> rows() const { return model.ids(); }
};

}  // namespace

TEST_F(GraphModelTest, EveryCaseIsARowInIdOrderWithItsLineageAndState) {
  EXPECT_EQ(model.rowCount(), 5);
  EXPECT_EQ(model.columnCount(), GraphModel::ColumnCount);
  EXPECT_EQ(rows(), (std::vector<int64_t>{a, b, c, d, e}));
  const int rb = model.rowOf(b);
  EXPECT_EQ(model.index(rb, GraphModel::Id).data(GraphModel::CaseIdRole).toLongLong(), b);
  EXPECT_EQ(model.index(rb, 0).data(GraphModel::ParentIdRole).toLongLong(), a);
  EXPECT_FALSE(model.index(model.rowOf(a), 0).data(GraphModel::ParentIdRole).isValid()) << "a root";
  EXPECT_EQ(model.index(rb, GraphModel::Task).data().toString(), "gelu");
  EXPECT_FALSE(model.index(model.rowOf(c), 0).data(GraphModel::CorrectRole).toBool());
  EXPECT_EQ(model.index(model.rowOf(e), GraphModel::Origin).data().toString(), "local");
  EXPECT_EQ(model.rowOf(999999), -1);
  EXPECT_EQ(model.node(999999), nullptr);
  const FilterChoices ch = model.choices();
  EXPECT_EQ(ch.tasks, (std::vector<QString>{"exp", "gelu"}));
  EXPECT_EQ(ch.devices, std::vector<QString>{"cpu"});
  EXPECT_EQ(ch.runs, (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(ch.tags.empty()) << "idea tags derived from the thoughts";
}

TEST_F(GraphModelTest, AReloadAddsChangesAndRemovesRowsNeverResets) {
  QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted), removed(&model, &QAbstractItemModel::rowsRemoved),
      changed(&model, &QAbstractItemModel::dataChanged), reset(&model, &QAbstractItemModel::modelReset);
  const NodeData* nodeA = model.node(a);
  // A loop's new Case: one insert at the end, nothing else touched.
  int64_t f = 0;
  {
    Workspace other = Workspace::open(tmp.path());
    MemoryStore m(other.handle());
    f = m.add_case(mk("gelu", d, 1.3, true, "a live case", 3, 6));
  }
  model.load(*mem, ws);
  ASSERT_EQ(inserted.count(), 1);
  EXPECT_EQ(inserted[0][1].toInt(), 5);
  EXPECT_EQ(inserted[0][2].toInt(), 5);
  EXPECT_EQ(model.idAt(5), f);
  EXPECT_EQ(model.node(a), nodeA) << "a node keeps its address: the scene's item holds it";
  // d's subtree changes (d and f pruned; d's d(v) grew with its new child at the add): rows of d and f only.
  changed.clear();
  mem->prune(d, true, "alice", "loaded machine");
  model.load(*mem, ws);
  ASSERT_GE(changed.count(), 1);
  for (const auto& sig : changed) {
    const int first = sig[0].value<QModelIndex>().row(), last = sig[1].value<QModelIndex>().row();
    for (int r = first; r <= last; ++r) EXPECT_TRUE(model.idAt(r) == d || model.idAt(r) == f) << model.idAt(r);
  }
  EXPECT_TRUE(model.node(d)->row.pruned);
  EXPECT_TRUE(model.index(model.rowOf(f), 0).data(GraphModel::PrunedRole).toBool());
  // Rows given out of order, some gone, one incumbent: removed in runs, inserted at their sorted place.
  std::vector<memory::CaseRow> some = {*mem->get_case(e), *mem->get_case(a)};
  for (auto& r : some) {  // as a listing reads them
    r.diff.clear();
    r.feedback.clear();
    r.scene = nullptr;
    r.hardware = nullptr;
  }
  EXPECT_EQ(model.choices().runs, (std::vector<int64_t>{1, 2, 3}));
  model.setCases(some, {e});
  EXPECT_EQ(rows(), (std::vector<int64_t>{a, e}));
  EXPECT_TRUE(model.index(1, 0).data(GraphModel::IncumbentRole).toBool());
  // The filter's choices follow the rows removed and added (they are counted, not gathered from every node).
  EXPECT_EQ(model.choices().runs, (std::vector<int64_t>{1, 2}));
  model.setCases({some[0]}, {e});
  EXPECT_EQ(model.choices().tasks, std::vector<QString>{"exp"});
  EXPECT_EQ(model.choices().runs, std::vector<int64_t>{2});
  model.load(*mem, ws);
  EXPECT_EQ(rows(), (std::vector<int64_t>{a, b, c, d, e, f}));
  EXPECT_EQ(model.choices().tasks, (std::vector<QString>{"exp", "gelu"}));
  EXPECT_EQ(model.choices().runs, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_FALSE(model.node(e)->incumbent);
  EXPECT_GE(removed.count(), 1);
  EXPECT_EQ(reset.count(), 0);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(model.choices().tasks.empty());
  EXPECT_TRUE(model.choices().tags.empty());
}

TEST_F(GraphModelTest, TheFilterMatchesByTaskLabelRunTagAndOrigin) {
  GraphFilter f;
  f.task = "gelu";
  match.setFilter(f);
  EXPECT_EQ(static_cast<int>(shownIds().size()), 4);
  f.label = "incorrect";
  match.setFilter(f);
  EXPECT_EQ(shownIds(), std::vector<int64_t>{c});
  f.label = "effective";
  match.setFilter(f);
  EXPECT_FALSE(contains(shownIds(), c)) << "an incorrect Case has no effective label";
  f = {};
  f.run = 2;
  match.setFilter(f);
  EXPECT_EQ(shownIds(), (std::vector<int64_t>{d, e}));
  f = {};
  ASSERT_FALSE(model.choices().tags.empty());
  f.tag = model.choices().tags.front();
  match.setFilter(f);
  ASSERT_FALSE(shownIds().empty());
  for (int64_t id : shownIds()) {
    const auto& tags = model.node(id)->row.tags;
    EXPECT_TRUE(std::find(tags.begin(), tags.end(), f.tag.toStdString()) != tags.end()) << id;
  }
  EXPECT_LT(static_cast<int>(shownIds().size()), 5);
  f = {};
  f.origin = "foreign";
  match.setFilter(f);
  EXPECT_EQ(static_cast<int>(shownIds().size()), 0);
  f.origin = "local";
  match.setFilter(f);
  EXPECT_EQ(static_cast<int>(shownIds().size()), 5);
  match.setFilter({});
  EXPECT_EQ(static_cast<int>(shownIds().size()), 5);
  // A Case added while a filter holds is filtered as it arrives.
  f = {};
  f.task = "exp";
  match.setFilter(f);
  mem->add_case(mk("gelu", d, 1.3, true, "another gelu", 3, 6));
  const int64_t x = mem->add_case(mk("exp", e, 1.4, true, "another exp", 3, 7));
  model.load(*mem, ws);
  EXPECT_EQ(shownIds(), (std::vector<int64_t>{e, x}));
}

TEST_F(GraphModelTest, SearchByIdAnywhereAndByThoughtWithinTheFilter) {
  EXPECT_EQ(match.search(model, "#" + QString::number(d)), std::vector<int64_t>{d});
  EXPECT_EQ(match.search(model, QString::number(d)), std::vector<int64_t>{d});
  EXPECT_EQ(match.search(model, "  schraudolph "), std::vector<int64_t>{e});
  EXPECT_EQ(match.search(model, "AT"), (std::vector<int64_t>{b, c})) << "approximATion, accumulATors: any case, id order";
  EXPECT_TRUE(match.search(model, "no such idea").empty());
  EXPECT_TRUE(match.search(model, "  ").empty());
  GraphFilter f;
  f.task = "gelu";
  match.setFilter(f);
  EXPECT_TRUE(match.search(model, "schraudolph").empty()) << "the thought of a Case the filter hides";
  EXPECT_EQ(match.search(model, "#" + QString::number(e)), std::vector<int64_t>{e}) << "an id is found, shown or not";
}

TEST_F(GraphModelTest, CurationGoesThroughTheStoreWithUndoAndRedo) {
  QUndoStack undo;
  int reloads = 0;
  auto reload = [&] {
    model.load(*mem, ws);
    ++reloads;
  };
  auto* cmd = new CurationCommand(*mem, CurationAct::PruneSubtree, {b, e}, "measured on a loaded machine", reload);
  undo.push(cmd);
  EXPECT_EQ(cmd->changedCases(), 3) << "B, D and E";
  EXPECT_EQ(reloads, 1);
  for (int64_t id : {b, d, e}) EXPECT_TRUE(model.node(id)->row.pruned) << id;
  EXPECT_FALSE(contains(retrieved(*mem, "gelu"), b)) << "retrieval reads the same tables";
  undo.undo();
  for (int64_t id : {b, d, e}) EXPECT_FALSE(model.node(id)->row.pruned) << id;
  EXPECT_TRUE(contains(retrieved(*mem, "gelu"), b));
  undo.redo();
  EXPECT_TRUE(model.node(d)->row.pruned);
  EXPECT_EQ(reloads, 3);
  // Every act is recorded: prune, undo (unprune), redo (prune).
  const auto acts = mem->curation(b);
  ASSERT_EQ(acts.size(), 3u);
  EXPECT_EQ(acts[0].why, "measured on a loaded machine");
  EXPECT_EQ(acts[1].act, "unprune");
  EXPECT_NE(acts[1].why.find("undo: prune subtree"), std::string::npos);
  EXPECT_EQ(acts[2].why, "redo: measured on a loaded machine");
  // Pin and mark, undone in turn.
  undo.push(new CurationCommand(*mem, CurationAct::Pin, {d}, "", reload));
  undo.push(new CurationCommand(*mem, CurationAct::Cheat, {a}, "calls the library", reload));
  EXPECT_TRUE(model.node(d)->row.pinned);
  EXPECT_EQ(model.node(a)->row.flag, "cheat");
  undo.undo();
  EXPECT_EQ(model.node(a)->row.flag, "");
  undo.undo();
  EXPECT_FALSE(model.node(d)->row.pinned);
  // A refused act (pruning needs a reason) throws out of push and changes nothing.
  auto refused = std::make_unique<CurationCommand>(*mem, CurationAct::Prune, std::vector<int64_t>{a}, "", reload);
  EXPECT_THROW(undo.push(refused.get()), Error);
  EXPECT_FALSE(mem->curation_state(a).pruned);
  EXPECT_EQ(undo.count(), 3);
  EXPECT_STREQ(act_name(CurationAct::ClearFlag), "clear mark");
  EXPECT_TRUE(needs_reason(CurationAct::Invalid));
  EXPECT_FALSE(needs_reason(CurationAct::Unprune));
}

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
