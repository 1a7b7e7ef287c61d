#include "attempt_pane.h"

#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "agentview/agent_view.h"
#include "case_details.h"
#include "graph/flow_layout.h"
#include "kope/base/format.h"
#include "models/status.h"
#include "view_util.h"
#include "models/qtext.h"

namespace kope::ui {

AttemptPane::AttemptPane(AttemptActions* actions, QWidget* parent) : QWidget(parent), actions_(actions) {
  setObjectName("attempt-pane");
  title_ = new QLabel;
  title_->setTextFormat(Qt::PlainText);  // task and kernel names
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  kernel_ = new QPushButton;
  case_ = new QPushButton;
  compare_ = new QPushButton;
  // The buttons wrap onto a second row in a narrow centre rather than hold it wider than 1024x700 leaves it.
  auto* buttons = new kope::graph::FlowLayout;
  buttons->addWidget(kernel_);
  buttons->addWidget(case_);
  buttons->addWidget(compare_);
  connect(kernel_, &QPushButton::clicked, this, [this] { actions_->trigger(AttemptActions::Act::Kernel, shown_.ref); });
  connect(case_, &QPushButton::clicked, this, [this] { actions_->trigger(AttemptActions::Act::Case, shown_.ref); });
  connect(compare_, &QPushButton::clicked, this,
          [this] { actions_->trigger(AttemptActions::Act::CompareIncumbent, shown_.ref); });

  diff_ = new QTextBrowser;
  diff_->setObjectName("attempt-diff");
  diff_->setOpenLinks(false);
  results_ = new CaseModel(this);
  results_view_ = makeTableView(this);
  results_view_->setModel(results_);
  summary_ = new QLabel;
  summary_->setTextFormat(Qt::PlainText);
  summary_->setWordWrap(true);
  results_box_ = new QWidget;
  auto* rl = new QVBoxLayout(results_box_);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->addWidget(summary_);
  rl->addWidget(results_view_, 1);
  transcript_ = new kope::agentview::AgentView;
  transcript_->setObjectName("attempt-transcript");
  parts_ = new QTabWidget;
  parts_->addTab(diff_, QString());
  parts_->addTab(results_box_, QString());
  parts_->addTab(transcript_, QString());

  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(title_);
  l->addLayout(buttons);
  l->addWidget(parts_, 1);
  retranslate();
  showAttempt({}, AttemptActions::Act::Open);
}

void AttemptPane::showAttempt(const AttemptDetails& d, AttemptActions::Act part) {
  shown_ = d;
  const bool any = d.ref.evaluation_id || d.ref.transcript_id || d.ref.case_id;
  if (!any) {
    title_->setText(tr("Double-click an attempt in the run controller, a Case in the graph or a History row to "
                       "see everything about it here."));
  } else {
    QStringList parts;
    parts << tr("%1: %2").arg(q(d.task), q(d.kernel_name.empty() ? "-" : d.kernel_name));
    if (d.evaluation) parts << tr("evaluation %1 (%2)").arg(d.evaluation->row.id).arg(statusText(d.evaluation->row.status));
    else if (!d.transcript_status.empty()) parts << tr("no evaluation: %1").arg(statusText(d.transcript_status));
    parts << (d.parent_evaluation ? tr("parent: %1 (evaluation %2)").arg(q(d.parent_name)).arg(*d.parent_evaluation)
                                  : tr("parent: %1").arg(q(d.parent_name)));
    if (d.ref.case_id) parts << tr("Case %1").arg(d.ref.case_id);
    if (d.ref.transcript_id) parts << tr("transcript %1").arg(d.ref.transcript_id);
    title_->setText(parts.join(" · "));
  }
  kernel_->setEnabled(d.evaluation.has_value());
  case_->setEnabled(d.ref.case_id != 0);
  compare_->setEnabled(d.evaluation.has_value());
  diff_->setHtml(!d.diff.empty() ? kope::graph::diffHtml(d.diff)
                 : any           ? "<p>" + tr("No diff: the attempt ran no kernel, or its kernel is its parent's.") + "</p>"
                                 : QString());
  showResults();
  transcript_->setStores(actions_->agentStore(), actions_->memoryStore());
  if (d.ref.transcript_id) transcript_->showAttempt(d.ref.transcript_id);
  else transcript_->showEvaluation(d.ref.evaluation_id);
  switch (part) {
    case AttemptActions::Act::Results: parts_->setCurrentWidget(results_box_); break;
    case AttemptActions::Act::Transcript: parts_->setCurrentWidget(transcript_); break;
    case AttemptActions::Act::Open:
    case AttemptActions::Act::Diff: parts_->setCurrentWidget(diff_); break;
    default: break;
  }
}

void AttemptPane::showResults() {
  const AttemptDetails& d = shown_;
  if (!d.evaluation) {
    results_->clear();
    summary_->setText(d.transcript_reason.empty() ? tr("No results: the attempt ran no evaluation.")
                                                  : tr("No results: %1").arg(q(d.transcript_reason)));
    return;
  }
  if (!d.evaluation->report) {
    results_->clear();
    summary_->setText(tr("Evaluation %1 has no report: %2").arg(d.evaluation->row.id).arg(q(d.evaluation->row.report)));
    return;
  }
  const EvalReport& rep = *d.evaluation->report;
  results_->setRows(rep.cases);
  results_view_->resizeColumnsToContents();
  QString text = rep.compiled ? tr("Result: %1").arg(statusText(rep.status()))
                              : tr("Did not compile: %1").arg(q(rep.compile.error));
  if (auto s = rep.speedup()) text += tr(", speedup %1").arg(q(format::speedup(s)));
  summary_->setText(text);
}

void AttemptPane::retranslate() {
  parts_->setTabText(parts_->indexOf(diff_), tr("Diff against parent"));
  parts_->setTabText(parts_->indexOf(results_box_), tr("Results"));
  parts_->setTabText(parts_->indexOf(transcript_), tr("LLM transcript"));
  kernel_->setText(tr("Open kernel in editor"));
  case_->setText(tr("Show Case in graph"));
  compare_->setText(tr("Compare with incumbent"));
  results_->retranslate();
}

}  // namespace kope::ui
