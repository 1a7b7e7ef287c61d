#include "compare_pane.h"

#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "charts/chart_panel.h"
#include "editor/kernel_editor.h"
#include "kope/base/format.h"
#include "view_util.h"

using namespace kope::eval;

namespace kope::ui {

namespace {

QWidget* titled(QLabel* title, QWidget* w) {
  auto* box = new QWidget;
  auto* l = new QVBoxLayout(box);
  l->setContentsMargins(0, 0, 0, 0);
  l->addWidget(title);
  l->addWidget(w, 1);
  return box;
}

}  // namespace

ComparePane::ComparePane(QWidget* parent) : QWidget(parent) {
  setObjectName("compare-pane");
  model_ = new CompareModel(this);
  left_ = new KernelEditor;
  right_ = new KernelEditor;
  left_->setReadOnly(true);
  right_->setReadOnly(true);
  chart_ = new ChartPanel;
  title_ = new QLabel;
  title_->setWordWrap(true);
  left_title_ = new QLabel;
  right_title_ = new QLabel;
  for (QLabel* l : {title_, left_title_, right_title_}) l->setTextFormat(Qt::PlainText);  // kernel names
  view_ = makeTableView(this);
  view_->setModel(model_);
  auto* sources = new QSplitter(Qt::Horizontal);
  sources->addWidget(titled(left_title_, left_));
  sources->addWidget(titled(right_title_, right_));
  auto* results = new QSplitter(Qt::Horizontal);
  results->addWidget(view_);
  results->addWidget(chart_);
  results->setSizes({560, 420});
  chart_->setMinimumWidth(220);  // with the task list and the run controller, the centre keeps ~300 px at 1024 wide
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(sources);
  split->addWidget(results);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(title_);
  l->addWidget(split, 1);
  // Scroll the two sources together.
  connect(left_->verticalScrollBar(), &QScrollBar::valueChanged, right_->verticalScrollBar(), &QScrollBar::setValue);
  connect(right_->verticalScrollBar(), &QScrollBar::valueChanged, left_->verticalScrollBar(), &QScrollBar::setValue);
  retranslate();
}

void ComparePane::showComparison(const Comparison& c, const QString& sourceA, const QString& sourceB) {
  comparison_ = c;
  model_->setRows(c.cases);
  view_->resizeColumnsToContents();
  left_->setReadOnly(false);
  right_->setReadOnly(false);
  left_->setText(sourceA);
  right_->setText(sourceB);
  for (const DiffLine& d : diff_lines(sourceA.toStdString(), sourceB.toStdString())) {
    if (d.kind == DiffLine::Kind::Removed) left_->markDiffLine(d.a_line, false);
    if (d.kind == DiffLine::Kind::Added) right_->markDiffLine(d.b_line, true);
  }
  left_->setReadOnly(true);
  right_->setReadOnly(true);
  retranslate();
}

void ComparePane::retranslate() {
  model_->retranslate();
  const Comparison& c = comparison_;
  if (c.a_evaluation == 0) {
    title_->setText(tr("Pick two versions in History (or one and the incumbent) to compare them."));
    left_title_->setText(tr("A"));
    right_title_->setText(tr("B"));
    chart_->clear(tr("B over A, per case"));
    return;
  }
  title_->setText(tr("A: evaluation %1 (%2) · B: evaluation %3 (%4) · B over A: %5")
                      .arg(c.a_evaluation)
                      .arg(QString::fromStdString(c.a_kernel))
                      .arg(c.b_evaluation)
                      .arg(QString::fromStdString(c.b_kernel), QString::fromStdString(format::speedup(c.speedup))) +
                  (c.a_task != c.b_task ? "  " + tr("(different tasks)") : QString()));
  left_title_->setText(tr("A: evaluation %1, %2").arg(c.a_evaluation).arg(QString::fromStdString(c.a_kernel)));
  right_title_->setText(tr("B: evaluation %1, %2").arg(c.b_evaluation).arg(QString::fromStdString(c.b_kernel)));
  QStringList cats;
  QVector<double> values;
  QVector<std::optional<std::pair<double, double>>> intervals;
  for (const auto& row : c.cases) {
    cats << QString::fromStdString(row.name);
    values << row.speedup.value_or(0.0);
    intervals << row.interval;
  }
  chart_->showBars(tr("B over A, per case"), cats, {{tr("B over A"), values, QColor(0x2f, 0x6f, 0xb5)}},
                   tr("A median / B median"), 1.0, intervals);
}

}  // namespace kope::ui
