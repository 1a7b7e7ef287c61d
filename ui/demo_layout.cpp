// The layout tour of the screenshot script (kope-workbench --demo-script): the window at 1024x700 and at
// 2560x1440 with the run controller, the experience graph (a Case selected) and what the agent was shown, each
// docked; then the same at 1024x700 in Simplified Chinese. Saves layout_1024_<pane>.png, layout_2560_<pane>.png
// and zh_CN_<pane>.png into the demo's folder.
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTabWidget>

#include <iostream>

#include "demo_script.h"
#include "engine.h"
#include "graph/graph_widget.h"
#include "i18n.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"
#include "main_window.h"
#include "models/models.h"
#include "demo_internal.h"
#include "views/run_controller.h"

namespace kope::ui {

namespace {

void save(QWidget& w, const QString& outDir, const QString& name) {
  settle(15);
  const QString path = QString("%1/%2.png").arg(outDir, name);
  w.grab().save(path);
  std::cout << path.toStdString() << "\n";
}

// The offline policy records no transcript, so the tour records one by hand for the newest Case's evaluation,
// shaped as the LLM policy records it (sections by tier, one ranked but left out, the reply and its usage), so
// the agent view has something to lay out. Returns the Case to select, or 0 when the memory has none.
int64_t recordTranscript(const std::filesystem::path& workspace) {
  workspace::Workspace ws = workspace::Workspace::open(workspace);
  memory::MemoryStore::ensure_schema(ws.handle());
  memory::MemoryStore m(ws.handle());
  memory::CaseFilter newest2;
  newest2.limit = 2;
  const auto cases = m.cases(newest2);
  if (cases.empty() || !cases.front().evaluation_id) return 0;
  const memory::CaseRow& newest = cases.front();
  agent::AgentStore a = agent::AgentStore::open(workspace);
  agent::AttemptHeader h;
  h.run_id = newest.run_id.value_or(0);
  h.task = newest.task;
  h.device = newest.device;
  h.iteration = static_cast<int>(newest.step);
  h.profile = "demo";
  h.provider = "openai";
  h.model = "gpt-4o-mini";
  h.arm = "active";
  agent::Prompt p;
  p.budget.budget = 6459;
  auto section = [](const char* name, agent::Tier tier, const char* kind, int64_t id, const std::string& label,
                    int64_t tokens, double rank) {
    agent::Section s;
    s.name = name;
    s.tier = tier;
    s.source_kind = kind;
    s.source_id = id;
    s.label = label;
    s.tokens = tokens;
    s.rank = rank;
    return s;
  };
  const int64_t other = cases.size() > 1 ? cases[1].id : newest.id;
  p.sections = {section("spec", agent::Tier::Hot, "task", 0, "task specification (" + newest.task + ")", 610, 1),
                section("incumbent", agent::Tier::Hot, "incumbent", 0, "incumbent kernel and its speedups", 880, 1),
                section("feedback", agent::Tier::Hot, "evaluation", 0, "feedback of the last attempt", 240, 1),
                section("experience", agent::Tier::Warm, "case", other, "Case #" + std::to_string(other) + ": " + cases.back().thought, 720, 0.82),
                section("doc", agent::Tier::Cold, "doc", 0, "vectorisation notes (docs/simd.md)", 410, 0.4)};
  p.left_out = {section("experience", agent::Tier::Warm, "failure", other, "failed attempt: unroll by 16", 930, 0.31)};
  const int64_t attempt = a.begin_attempt(h, p);
  agent::ExchangeRecord x;
  x.answer = "Keep the erf polynomial and vectorise the tail with a masked store.";
  x.reasoning = "The incumbent spends most of its time in the scalar tail.";
  x.finish_reason = "stop";
  x.prompt_tokens = 2860;
  x.completion_tokens = 512;
  x.usage_from_server = true;
  x.latency_s = 4.2;
  x.cost = 0.0021;
  a.record_exchange(attempt, x);
  a.link_evaluation(attempt, *newest.evaluation_id, newest.status);
  return newest.id;
}

// The three docked panes at the window's current size, saved as <prefix>_run, <prefix>_graph, <prefix>_agent.
void shootPanes(MainWindow& w, graph::GraphWidget& g, int64_t caseId, const QString& outDir, const QString& prefix) {
  w.runDock()->raise();
  save(w, outDir, prefix + "_run");
  w.graphDock()->raise();
  if (caseId) g.selectCase(caseId);
  auto* side = g.findChild<QTabWidget*>("graph-side");
  if (side) side->setCurrentIndex(0);
  save(w, outDir, prefix + "_graph");
  if (side) side->setCurrentIndex(1);
  save(w, outDir, prefix + "_agent");
  if (side) side->setCurrentIndex(0);
  w.runDock()->raise();
}

}  // namespace

const char* demoLayout(MainWindow& w, const QString& outDir) {
  auto* g = qobject_cast<graph::GraphWidget*>(w.graphDock()->widget());
  if (!g) return "the experience graph is not docked";
  const int64_t caseId = recordTranscript(w.engine()->workspace());
  g->refresh();
  if (!g->waitForLayout(120000)) return "the graph was not laid out";
  const QSize before = w.size();
  w.resize(1024, 700);
  shootPanes(w, *g, caseId, outDir, "layout_1024");
  w.resize(2560, 1440);
  shootPanes(w, *g, caseId, outDir, "layout_2560");
  w.resize(1024, 700);
  install_translation(*QCoreApplication::instance(), "zh_CN");
  shootPanes(w, *g, caseId, outDir, "zh_CN");
  save(w, outDir, "zh_CN_window");
  install_translation(*QCoreApplication::instance(), "en");
  w.resize(before);
  return nullptr;
}

}  // namespace kope::ui
