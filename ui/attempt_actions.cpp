#include "attempt_actions.h"

#include <QAbstractItemView>
#include <QAction>
#include <QFont>
#include <QMenu>

#include "kope/agent/store.h"
#include "kope/base/error.h"
#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::ui {

namespace {

constexpr AttemptActions::Act kActs[] = {AttemptActions::Act::Open,    AttemptActions::Act::Kernel,
                                         AttemptActions::Act::Diff,    AttemptActions::Act::Results,
                                         AttemptActions::Act::Transcript, AttemptActions::Act::Case,
                                         AttemptActions::Act::CompareIncumbent};

}  // namespace

AttemptActions::AttemptActions(std::filesystem::path workspace, QObject* parent)
    : QObject(parent), dir_(std::move(workspace)) {
  qRegisterMetaType<kope::ui::AttemptDetails>();
  for (Act act : kActs) {
    auto* a = new QAction(this);
    connect(a, &QAction::triggered, this, [this, act] { trigger(act, menu_ref_); });
    actions_ << a;
  }
  QFont bold = actions_.front()->font();
  bold.setBold(true);
  actions_.front()->setFont(bold);  // what a double-click does
  retranslate();
}

AttemptActions::~AttemptActions() = default;

Workspace& AttemptActions::workspace() {
  if (!ws_) {
    auto ws = std::make_unique<Workspace>(Workspace::open(dir_));
    memory::MemoryStore::ensure_schema(ws->handle());
    memory_ = std::make_unique<memory::MemoryStore>(ws->handle());
    agent_ = std::make_unique<agent::AgentStore>(agent::AgentStore::reader(ws->handle()));
    ws_ = std::move(ws);
  }
  return *ws_;
}

const agent::AgentStore* AttemptActions::agentStore() {
  workspace();
  return agent_.get();
}

const memory::MemoryStore* AttemptActions::memoryStore() {
  workspace();
  return memory_.get();
}

// A Case names its evaluation, or (a foreign Case) holds its kernel and diff itself.
void AttemptActions::fillFromCase(AttemptDetails& d) {
  auto c = memory_->get_case(d.ref.case_id);
  if (!c) throw Error("no Case " + std::to_string(d.ref.case_id) + " in the memory");
  d.task = c->task;
  d.kernel_name = c->kernel_name;
  if (c->evaluation_id && d.ref.evaluation_id == 0) d.ref.evaluation_id = *c->evaluation_id;
  if (d.ref.evaluation_id != 0) return;
  d.diff = c->diff;
  d.parent_name = c->prev_case_id ? "Case " + std::to_string(*c->prev_case_id) : "baseline";
  if (c->kernel_id) d.source = ws_->kernel_source(*c->kernel_id).value_or("");
}

void AttemptActions::fillTranscript(AttemptDetails& d) {
  if (d.ref.transcript_id == 0 && d.ref.evaluation_id != 0)
    d.ref.transcript_id = agent_->attempt_of_evaluation(d.ref.evaluation_id).value_or(0);
  if (d.ref.transcript_id == 0) return;
  if (auto t = agent_->attempt(d.ref.transcript_id)) {
    d.transcript_status = t->status;
    d.transcript_reason = t->reason;
    if (d.task.empty()) d.task = t->header.task;
    if (d.ref.evaluation_id == 0 && t->evaluation_id) d.ref.evaluation_id = *t->evaluation_id;
  }
}

AttemptDetails AttemptActions::details(const AttemptRef& ref) {
  Workspace& ws = workspace();
  AttemptDetails d;
  d.ref = ref;
  d.parent_name = "baseline";
  if (d.ref.case_id != 0) fillFromCase(d);
  fillTranscript(d);
  if (d.ref.evaluation_id != 0) {
    d.evaluation = load_evaluation(ws, d.ref.evaluation_id);
    const EvaluationRow& row = d.evaluation->row;
    d.task = row.task;
    d.kernel_name = row.kernel_origin;
    d.source = d.evaluation->source;
    if (d.ref.case_id == 0) d.ref.case_id = memory_->case_of_evaluation(row.id).value_or(0);
    // The same diff the memory keeps with the Case: against the kernel of the incumbent it started from.
    std::string parent_source;
    if (row.prev_evaluation_id)
      if (auto prev = ws.evaluation(*row.prev_evaluation_id)) {
        d.parent_evaluation = prev->id;
        d.parent_name = prev->kernel_origin;
        parent_source = ws.kernel_source(prev->kernel_id).value_or("");
      }
    d.diff = memory::unified_diff(parent_source, d.source, "a/" + d.parent_name, "b/" + d.kernel_name);
  }
  if (d.ref.evaluation_id == 0 && d.ref.transcript_id == 0 && d.ref.case_id == 0)
    throw Error("nothing recorded names this attempt: it has no evaluation, transcript or Case");
  return d;
}

void AttemptActions::trigger(Act act, const AttemptRef& ref) {
  try {
    const AttemptDetails d = details(ref);
    switch (act) {
      case Act::Open:
        if (d.evaluation) emit kernelRequested(*d.evaluation);
        if (d.ref.case_id) emit caseRequested(d.ref.case_id, false);
        emit detailsRequested(d, Act::Open);
        break;
      case Act::Kernel:
        if (!d.evaluation) throw Error("this attempt ran no evaluation: there is no kernel to open");
        emit kernelRequested(*d.evaluation);
        break;
      case Act::Diff:
      case Act::Results:
      case Act::Transcript:
        emit detailsRequested(d, act);
        break;
      case Act::Case:
        if (!d.ref.case_id) throw Error("this attempt has no Case in the memory (it ran no evaluation)");
        emit caseRequested(d.ref.case_id, true);
        break;
      case Act::CompareIncumbent:
        compareWithIncumbent(d);
        break;
    }
  } catch (const std::exception& e) {
    emit failed(QString::fromStdString(e.what()));
  }
}

void AttemptActions::compareWithIncumbent(const AttemptDetails& d) {
  if (!d.evaluation) throw Error("this attempt ran no evaluation: there is nothing to compare");
  const auto inc = ws_->incumbent(d.task, d.evaluation->row.device);
  if (!inc) throw Error("task " + d.task + " has no incumbent yet: the baseline is still the one to beat");
  if (inc->evaluation_id == d.evaluation->row.id) throw Error("this attempt is the incumbent of " + d.task);
  const ComparedEvaluations c = compare_evaluations(*ws_, inc->evaluation_id, d.evaluation->row.id);
  emit comparisonReady(c.comparison, c.source_a, c.source_b);
}

QList<QAction*> AttemptActions::actionsFor(const AttemptRef& ref) {
  menu_ref_ = ref;
  const bool evaluated = ref.evaluation_id != 0 || ref.case_id != 0;
  for (int i = 0; i < actions_.size(); ++i) {
    const Act act = kActs[i];
    actions_[i]->setEnabled(evaluated || act == Act::Open || act == Act::Transcript);
  }
  return actions_;
}

void AttemptActions::attach(QAbstractItemView* view,
                            std::function<std::optional<AttemptRef>(const QModelIndex&)> refOf) {
  QPointer<QAbstractItemView> v(view);
  connect(view, &QAbstractItemView::activated, this, [this, refOf](const QModelIndex& i) {
    if (auto ref = refOf(i)) open(*ref);
  });
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view, &QWidget::customContextMenuRequested, this, [this, v, refOf](const QPoint& at) {
    if (!v) return;
    const QModelIndex i = v->indexAt(at);
    if (!i.isValid()) return;
    const auto ref = refOf(i);
    if (!ref) return;
    QMenu menu(v);
    menu.addActions(actionsFor(*ref));
    menu.exec(v->viewport()->mapToGlobal(at));
  });
}

void AttemptActions::retranslate() {
  const QString texts[] = {tr("Open the attempt (kernel, diff, results, transcript)"),
                           tr("Open its kernel in the editor"),
                           tr("Diff against its parent kernel"),
                           tr("Its results"),
                           tr("Its LLM transcript"),
                           tr("Show its Case in the graph"),
                           tr("Compare with the incumbent")};
  for (int i = 0; i < actions_.size(); ++i) actions_[i]->setText(texts[i]);
}

}  // namespace kope::ui
