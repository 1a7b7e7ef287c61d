#include "history_pane.h"

#include <QGridLayout>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "view_util.h"

namespace kope::ui {

HistoryPane::HistoryPane(QWidget* parent) : QWidget(parent) {
  setObjectName("history-pane");
  model_ = new HistoryModel(this);
  runs_ = new RunModel(this);
  view_ = makeTableView(this);
  view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  view_->setModel(model_);
  run_view_ = makeTableView(this);
  run_view_->setModel(runs_);
  restore_ = new QPushButton;
  compare_ = new QPushButton;
  incumbent_ = new QPushButton;
  fork_ = new QPushButton;
  // Two by two, so a 1024-wide window still fits the pane beside the docks.
  auto* buttons = new QGridLayout;
  buttons->addWidget(restore_, 0, 0);
  buttons->addWidget(compare_, 0, 1);
  buttons->addWidget(incumbent_, 1, 0);
  buttons->addWidget(fork_, 1, 1);
  buttons->setColumnStretch(2, 1);
  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(view_);
  split->addWidget(run_view_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addLayout(buttons);
  l->addWidget(split, 1);
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &HistoryPane::updateButtons);
  connect(model_, &QAbstractItemModel::modelReset, this, [this] {
    view_->resizeColumnsToContents();
    updateButtons();
  });
  connect(runs_, &QAbstractItemModel::modelReset, this, [this] { run_view_->resizeColumnsToContents(); });
  connect(restore_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedEvaluations();
    if (ids.size() == 1) emit restoreRequested(ids[0]);
  });
  connect(compare_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedEvaluations();
    // Older as A, newer as B: the speedup then says what the newer version gained.
    if (ids.size() == 2) emit compareRequested(std::min(ids[0], ids[1]), std::max(ids[0], ids[1]));
  });
  connect(incumbent_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedEvaluations();
    if (ids.size() == 1) emit compareWithIncumbentRequested(ids[0]);
  });
  connect(fork_, &QPushButton::clicked, this, [this] {
    const auto ids = selectedEvaluations();
    if (ids.size() == 1) emit forkRequested(ids[0]);
  });
  retranslate();
  updateButtons();
}

QList<qint64> HistoryPane::selectedEvaluations() const {
  QList<int> rows;
  for (const QModelIndex& i : view_->selectionModel()->selectedRows()) rows << i.row();
  std::sort(rows.begin(), rows.end());
  QList<qint64> ids;
  for (int r : rows) ids << model_->at(r).id;
  return ids;
}

void HistoryPane::select(const QList<int>& rows) {
  view_->clearSelection();
  for (int r : rows)
    view_->selectionModel()->select(model_->index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
  updateButtons();
}

void HistoryPane::updateButtons() {
  const int n = static_cast<int>(view_->selectionModel()->selectedRows().size());
  restore_->setEnabled(n == 1);
  compare_->setEnabled(n == 2);
  incumbent_->setEnabled(n == 1);
  fork_->setEnabled(n == 1);
}

void HistoryPane::retranslate() {
  model_->retranslate();
  runs_->retranslate();
  restore_->setText(tr("Restore this version"));
  restore_->setToolTip(tr("Bring this kernel version and its results back into the editor"));
  compare_->setText(tr("Compare the two selected"));
  incumbent_->setText(tr("Compare with the incumbent"));
  fork_->setText(tr("Fork a run from here"));
}

}  // namespace kope::ui
