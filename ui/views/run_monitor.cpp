#include "run_monitor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "engine.h"
#include "kope/base/timing_slots.h"
#include "view_util.h"

using namespace kope::loop;

namespace kope::ui {

namespace {

QString clockText(double seconds) {
  const qint64 s = static_cast<qint64>(seconds);
  return QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

// The bar's range in an int, whatever the budget.
int clampInt(int64_t v) { return static_cast<int>(std::clamp<int64_t>(v, 0, 2000000000)); }

}  // namespace

RunMonitor::RunMonitor(QWidget* parent) : QWidget(parent) {
  setObjectName("run-monitor");
  in_flight_ = new InFlightModel(this);
  slots_ = new SlotModel(this);
  poll_ = new QTimer(this);
  poll_->setInterval(250);
  connect(poll_, &QTimer::timeout, this, &RunMonitor::poll);
  buildViews();
  retranslate();
  setPool({"cpu"});
  updateBudget();
  updateButtons();
}

// Budget bars on top; the tasks in flight with their steering buttons; the device pool below, in a splitter
// so a small window can give either the room.
void RunMonitor::buildViews() {
  budget_label_ = new QLabel;
  budget_label_->setTextFormat(Qt::PlainText);
  budget_ = new QProgressBar;
  budget_->setObjectName("run-budget");
  budget_->setTextVisible(true);
  wall_ = new QProgressBar;
  wall_->setObjectName("run-wall");
  wall_->setTextVisible(true);
  auto* bars = new QHBoxLayout;
  bars->addWidget(budget_label_);
  bars->addWidget(budget_, 2);
  bars->addWidget(wall_, 1);

  in_flight_label_ = new QLabel;
  in_flight_view_ = makeTableView(this);
  in_flight_view_->setObjectName("in-flight");
  in_flight_view_->setModel(in_flight_);
  in_flight_view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(in_flight_view_, &QWidget::customContextMenuRequested, this, &RunMonitor::showMenu);
  connect(in_flight_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RunMonitor::updateButtons);
  pause_task_ = new QPushButton;
  stop_task_ = new QPushButton;
  hint_task_ = new QPushButton;
  connect(pause_task_, &QPushButton::clicked, this, &RunMonitor::togglePauseTask);
  connect(stop_task_, &QPushButton::clicked, this, &RunMonitor::stopTask);
  connect(hint_task_, &QPushButton::clicked, this, [this] {
    if (!selectedTask().empty()) emit hintToTask(QString::fromStdString(selectedTask()));
  });
  auto* row_buttons = new QHBoxLayout;
  row_buttons->addWidget(in_flight_label_, 1);
  row_buttons->addWidget(pause_task_);
  row_buttons->addWidget(stop_task_);
  row_buttons->addWidget(hint_task_);
  auto* tasks = new QWidget;
  auto* tl = new QVBoxLayout(tasks);
  tl->setContentsMargins(0, 0, 0, 0);
  tl->addLayout(row_buttons);
  tl->addWidget(in_flight_view_, 1);

  pool_label_ = new QLabel;
  slot_view_ = makeTableView(this);
  slot_view_->setObjectName("device-pool");
  slot_view_->setModel(slots_);
  auto* pool = new QWidget;
  auto* pl = new QVBoxLayout(pool);
  pl->setContentsMargins(0, 0, 0, 0);
  pl->addWidget(pool_label_);
  pl->addWidget(slot_view_, 1);

  // Compact rows, columns as wide as their text with the last (the phase, what a slot does) stretching: a
  // 700-high window still shows a few tasks and slots without scrolling sideways.
  for (QTableView* v : {in_flight_view_, slot_view_}) {
    v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 6);
    v->setMinimumHeight(v->horizontalHeader()->sizeHint().height() + v->verticalHeader()->defaultSectionSize() +
                        2 * v->frameWidth());  // the header and one row
    v->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    v->horizontalHeader()->setSectionResizeMode(v->model()->columnCount() - 1, QHeaderView::Stretch);
    v->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the stretched column elides; its tooltip tells all
  }
  auto* split = new QSplitter(Qt::Vertical);
  split->setChildrenCollapsible(false);
  split->addWidget(tasks);
  split->addWidget(pool);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->addLayout(bars);
  l->addWidget(split, 1);
}

void RunMonitor::begin(std::shared_ptr<RunControl> control, const Budget& budget, std::vector<std::string> pool) {
  control_ = std::move(control);
  budget_limits_ = budget;
  running_ = true;
  in_flight_->setMaxAttempts(budget.max_attempts);
  in_flight_->clear();
  setPool(std::move(pool));
  clock_.start();
  poll_->start();
  updateBudget();
  updateButtons();
}

void RunMonitor::end(const std::vector<TaskOutcome>& outcomes) {
  in_flight_->finish(outcomes);
  poll();
  running_ = false;
  poll_->stop();
  updateBudget();
  updateButtons();
}

void RunMonitor::setPool(std::vector<std::string> devices) {
  pool_ = std::move(devices);
  poll();
}

void RunMonitor::phase(const std::string& task, const std::string& phase) {
  in_flight_->setPhase(task, phase);
  updateButtons();
}

void RunMonitor::progress(const std::string& task, const ProgressEvent& e) {
  switch (e.phase) {
    case EvalProgress::Phase::Compiling:
      in_flight_->setPhase(task, "compiling");
      break;
    case EvalProgress::Phase::Waiting:
      in_flight_->setPhase(task, "waiting");
      break;
    case EvalProgress::Phase::Testing:
    case EvalProgress::Phase::Timing:
      in_flight_->setPhase(task, e.phase == EvalProgress::Phase::Testing ? "testing" : "timing",
                           tr("%1/%2 (%3)")  // compact: the column is narrow; case 2 of 6
                               .arg(e.case_index + 1)
                               .arg(e.case_count)
                               .arg(QString::fromStdString(e.case_name))
                               .toStdString());
      break;
    default:
      break;
  }
}

void RunMonitor::attempt(const std::string& task, const Attempt& a) {
  in_flight_->addAttempt(task, a);
  updateBudget();
  updateButtons();
}

void RunMonitor::incumbent(const std::string& task, double speedup) { in_flight_->setIncumbent(task, speedup); }

std::string RunMonitor::selectedTask() const {
  const QModelIndexList rows = in_flight_view_->selectionModel()->selectedRows();
  return rows.isEmpty() ? std::string() : in_flight_->at(rows.front().row()).task;
}

void RunMonitor::selectTask(const std::string& task) {
  const int row = in_flight_->rowOf(task);
  if (row >= 0) in_flight_view_->selectRow(row);
}

void RunMonitor::togglePauseTask() {
  const std::string task = selectedTask();
  if (!control_ || task.empty()) return;
  const bool pause = !control_->paused(task);
  pause ? control_->pause(task) : control_->resume(task);
  in_flight_->setSteered(task, pause, control_->task_stopped(task));
  emit steered(QString::fromStdString(task), pause ? tr("pauses after its current attempt") : tr("resumed"));
  updateButtons();
}

void RunMonitor::stopTask() {
  const std::string task = selectedTask();
  if (!control_ || task.empty()) return;
  control_->stop_task(task);
  in_flight_->setSteered(task, control_->paused(task), true);
  emit steered(QString::fromStdString(task), tr("stopping: its running evaluation is cancelled"));
  updateButtons();
}

void RunMonitor::showMenu(const QPoint& at) {
  const QModelIndex index = in_flight_view_->indexAt(at);
  if (!index.isValid()) return;
  in_flight_view_->selectRow(index.row());
  QMenu menu(this);
  menu.addAction(pause_task_->text(), this, &RunMonitor::togglePauseTask)->setEnabled(pause_task_->isEnabled());
  menu.addAction(stop_task_->text(), this, &RunMonitor::stopTask)->setEnabled(stop_task_->isEnabled());
  menu.addAction(hint_task_->text(), hint_task_, &QPushButton::click)->setEnabled(hint_task_->isEnabled());
  menu.exec(in_flight_view_->viewport()->mapToGlobal(at));
}

// The pool's slots as they are now, and the wall clock.
void RunMonitor::poll() {
  std::vector<SlotState> all;
  for (const std::string& device : pool_)
    for (SlotState s : TimingSlots::of(device).states()) {
      // a pool of hosts has one slot per host: name it by its host
      if (pool_.size() > 1) s.spec.name = device + (s.spec.name.empty() ? "" : " " + s.spec.name);
      if (s.spec.name.empty()) s.spec.name = device;
      all.push_back(std::move(s));
    }
  slots_->refresh(std::move(all));
  if (running_) updateBudget();
}

void RunMonitor::updateBudget() {
  const Budget& b = budget_limits_;
  if (b.max_tokens > 0) {
    budget_->setRange(0, clampInt(b.max_tokens));
    budget_->setValue(clampInt(std::min(in_flight_->tokens(), b.max_tokens)));
    budget_->setFormat(tr("%1 of %2 tokens").arg(in_flight_->tokens()).arg(b.max_tokens));
  } else {
    const int total = std::max(1, b.tasks * b.max_attempts);
    budget_->setRange(0, total);
    budget_->setValue(std::min(in_flight_->attemptsDone(), total));
    budget_->setFormat(tr("%1 of %2 attempts").arg(in_flight_->attemptsDone()).arg(b.tasks * b.max_attempts));
  }
  const double elapsed = clock_.isValid() ? clock_.elapsed() / 1000.0 : 0.0;
  wall_->setRange(0, b.max_wall_seconds > 0 ? clampInt(static_cast<int64_t>(b.max_wall_seconds)) : 0);
  if (b.max_wall_seconds > 0) {
    wall_->setValue(clampInt(static_cast<int64_t>(std::min(elapsed, b.max_wall_seconds))));
    wall_->setFormat(tr("%1 of %2 wall time").arg(clockText(elapsed), clockText(b.max_wall_seconds)));
  } else {
    wall_->setRange(0, 1);
    wall_->setValue(0);
    wall_->setFormat(tr("%1 elapsed").arg(clockText(elapsed)));
  }
}

void RunMonitor::updateButtons() {
  const std::string task = selectedTask();
  const int row = in_flight_->rowOf(task);
  const bool live = running_ && control_ && !control_->stopped() && row >= 0 && !in_flight_->at(row).finished &&
                    !control_->task_stopped(task);
  pause_task_->setEnabled(live);
  stop_task_->setEnabled(live);
  hint_task_->setEnabled(live);
  pause_task_->setText(live && control_->paused(task) ? tr("Resume task") : tr("Pause task"));
}

void RunMonitor::retranslate() {
  in_flight_->retranslate();
  slots_->retranslate();
  budget_label_->setText(tr("Budget"));
  in_flight_label_->setText(tr("Tasks in flight"));
  pool_label_->setText(tr("Device pool"));
  pause_task_->setToolTip(tr("Pause the selected task after its current attempt, or resume it"));
  stop_task_->setText(tr("Stop task"));
  stop_task_->setToolTip(tr("Stop the selected task now; the others go on"));
  hint_task_->setText(tr("Hint to task"));
  hint_task_->setToolTip(tr("Send the hint being written above to the selected task alone"));
  updateButtons();
  updateBudget();
}

}  // namespace kope::ui
