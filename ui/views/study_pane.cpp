#include "views/study_pane.h"

#include <QComboBox>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "charts/study_chart.h"
#include "models/study_models.h"
#include "view_util.h"

#include <algorithm>

namespace kope::ui {

StudyPane::StudyPane(QWidget* parent) : QWidget(parent) {
  setObjectName("study-pane");
  levels_ = new StudyLevelModel(this);
  tasks_ = new StudyTaskModel(this);
  task_filter_ = new QSortFilterProxyModel(this);
  task_filter_->setSourceModel(tasks_);
  task_filter_->setFilterKeyColumn(StudyTaskModel::Arm);
  task_filter_->setSortRole(RawRole);
  summary_ = new QLabel;
  summary_->setTextFormat(Qt::PlainText);  // names from a file: never rich text
  summary_->setWordWrap(true);
  open_ = new QPushButton;
  connect(open_, &QPushButton::clicked, this, &StudyPane::openRequested);
  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(open_);

  level_view_ = makeTableView(this);
  level_view_->setModel(levels_);
  pass_ = new StudyChart(StudyChart::Figure::PassRate);
  speedup_ = new StudyChart(StudyChart::Figure::Speedup);
  auto* charts = new QSplitter(Qt::Horizontal);
  charts->addWidget(pass_);
  charts->addWidget(speedup_);

  arm_ = new QComboBox;
  arm_label_ = new QLabel;
  arm_label_->setBuddy(arm_);
  connect(arm_, &QComboBox::currentIndexChanged, this, [this](int i) {
    const QString arm = i <= 0 ? QString() : arm_->itemData(i).toString();
    task_filter_->setFilterRegularExpression(arm.isEmpty() ? QString() : "^" + QRegularExpression::escape(arm) + "$");
  });
  task_view_ = makeTableView(this);
  task_view_->setModel(task_filter_);
  task_view_->setSortingEnabled(true);
  auto* task_box = new QWidget;
  auto* task_layout = new QVBoxLayout(task_box);
  task_layout->setContentsMargins(0, 0, 0, 0);
  auto* filter_row = new QHBoxLayout;
  filter_row->addWidget(arm_label_);
  filter_row->addWidget(arm_);
  filter_row->addStretch(1);
  task_layout->addLayout(filter_row);
  task_layout->addWidget(task_view_);

  // Tables and plots share the height; each part keeps a usable minimum at 1024x700.
  auto* split = split_ = new QSplitter(Qt::Vertical);
  split->addWidget(level_view_);
  split->addWidget(charts);
  split->addWidget(task_box);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  split->setStretchFactor(2, 3);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(split, 1);
  retranslate();
}

void StudyPane::open(const std::filesystem::path& dir) {
  const study::StudyReport r = study::read_study(dir);
  show(r, QString::fromStdString(dir.string()));
}

void StudyPane::show(const study::StudyReport& report, const QString& where) {
  report_ = report;
  where_ = where;
  levels_->setRows(report.rows);
  tasks_->setRows(report.tasks);
  pass_->showStudy(report);
  speedup_->showStudy(report);
  arm_->blockSignals(true);
  arm_->clear();
  arm_->addItem(tr("all arms"));
  for (const std::string& a : report.arms) arm_->addItem(QString::fromStdString(a), QString::fromStdString(a));
  arm_->blockSignals(false);
  arm_->setCurrentIndex(0);
  task_filter_->setFilterRegularExpression(QString());
  level_view_->resizeColumnsToContents();
  task_view_->resizeColumnsToContents();
  // The level table as tall as its rows (a study has a few), so the plots get the height their axes need.
  const int rows = std::max(1, levels_->rowCount());
  const int want = level_view_->horizontalHeader()->height() + rows * level_view_->verticalHeader()->defaultSectionSize() +
                   level_view_->horizontalScrollBar()->sizeHint().height() + 2 * level_view_->frameWidth() + 4;
  level_view_->setMaximumHeight(want);
  // And given that height now, up to a third of the pane, the plots and the operators sharing the rest.
  const int total = std::max(split_->height(), 3 * want);
  const int table = std::min(want, total / 3);
  split_->setSizes({table, (total - table) / 2, (total - table) / 2});
  updateSummary();
}

void StudyPane::updateSummary() {
  if (where_.isEmpty()) {
    summary_->setText(tr("No study open. Run `kope study` and open its folder."));
    return;
  }
  summary_->setText(tr("%1: policy %2 on %3, %4 to %5%6")
                        .arg(where_, QString::fromStdString(report_.policy), QString::fromStdString(report_.device),
                             QString::fromStdString(report_.started), QString::fromStdString(report_.finished),
                             report_.stopped ? tr(" (stopped before every arm ran)") : QString()));
}

void StudyPane::retranslate() {
  open_->setText(tr("Open study..."));
  arm_label_->setText(tr("&Operators of"));
  if (arm_->count() > 0) arm_->setItemText(0, tr("all arms"));
  levels_->retranslate();
  tasks_->retranslate();
  pass_->retranslate();
  speedup_->retranslate();
  updateSummary();
}

}  // namespace kope::ui
