#include "run_controller.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

#include "engine.h"
#include "kope/llm/config.h"
#include "live_reply_pane.h"
#include "llm/key_store.h"
#include "models/status.h"
#include "run_monitor.h"
#include "run_pool.h"
#include "settings.h"
#include "view_util.h"

using namespace kope::loop;

namespace kope::ui {

RunController::RunController(Engine* engine, const Suite* suite, QWidget* parent)
    : QWidget(parent), engine_(engine), suite_(suite) {
  setObjectName("run-controller");
  tasks_ = new TaskModel(this);
  std::vector<TaskRow> rows;
  for (const Task& t : suite_->tasks()) rows.push_back({t.name, t.level, t.summary, false});
  tasks_->setRows(rows);
  attempts_ = new AttemptModel(this);
  steering_ = new SteeringModel(this);

  buildForm();
  buildControls();
  rememberChoices();
  layOut();
  connectSteering();
  connectEngine();
  retranslate();
  updateLiveShown();
  checkDevices();  // a saved pool that no longer parses is named at once
  setRunning(false);
}

// The run's choices: tasks, policy (offline or an LLM profile), memory arm, attempts and budgets.
void RunController::buildForm() {
  task_view_ = new QListView;
  task_view_->setModel(tasks_);
  task_view_->setMaximumHeight(110);
  policy_ = new QComboBox;
  policy_->setObjectName("run-policy");
  policy_->setEditable(true);  // offline, or the name of an LLM profile (typed, or from the settings file)
  reloadProfiles();
  policy_->setEditText(kRunPolicy.get());
  memory_ = new QComboBox;
  memory_->setObjectName("run-memory");
  memory_->addItems({"off", "dump", "active"});
  if (memory_->findText(kRunMemory.get()) >= 0) memory_->setCurrentText(kRunMemory.get());
  max_attempts_ = new QSpinBox;
  max_attempts_->setRange(1, 1000);
  max_attempts_->setValue(kRunMaxAttempts.get());
  auto budget = [](int max, const QString& none) {
    auto* b = new QSpinBox;
    b->setRange(0, max);
    b->setValue(0);
    b->setSpecialValueText(none);
    return b;
  };
  patience_ = budget(1000, "-");
  token_budget_ = budget(1000000, "-");
  wall_minutes_ = budget(100000, "-");
  patience_->setValue(kRunPatience.get());
  token_budget_->setValue(kRunTokenBudgetK.get());
  wall_minutes_->setValue(kRunWallMinutes.get());
  jobs_ = new QSpinBox;
  jobs_->setRange(1, 64);
  jobs_->setValue(kRunJobs.get());
  devices_ = new QLineEdit(kRunDevices.get());
  devices_->setObjectName("run-devices");
  devices_error_ = new QLabel;
  devices_error_->setObjectName("run-devices-error");
  devices_error_->setTextFormat(Qt::PlainText);  // the parser's message quotes what was typed
  devices_error_->setWordWrap(true);
  devices_error_->setStyleSheet("color: #b00020;");
  devices_error_->hide();
  auto* devices = new QWidget;
  auto* dl = new QVBoxLayout(devices);
  dl->setContentsMargins(0, 0, 0, 0);
  dl->setSpacing(2);
  dl->addWidget(devices_);
  dl->addWidget(devices_error_);
  connect(devices_, &QLineEdit::textChanged, this, [this] { checkDevices(); });
  tasks_label_ = new QLabel;
  policy_label_ = new QLabel;
  memory_label_ = new QLabel;
  attempts_label_ = new QLabel;
  patience_label_ = new QLabel;
  tokens_label_ = new QLabel;
  wall_label_ = new QLabel;
  jobs_label_ = new QLabel;
  devices_label_ = new QLabel;
  form_ = new QFormLayout;
  form_->setRowWrapPolicy(QFormLayout::WrapLongRows);  // a narrow dock puts a long label above its field
  form_->addRow(tasks_label_);
  form_->addRow(task_view_);  // the whole width: task names are long
  form_->addRow(policy_label_, policy_);
  form_->addRow(memory_label_, memory_);
  form_->addRow(attempts_label_, max_attempts_);
  form_->addRow(patience_label_, patience_);
  form_->addRow(tokens_label_, token_budget_);
  form_->addRow(wall_label_, wall_minutes_);
  form_->addRow(jobs_label_, jobs_);
  form_->addRow(devices_label_, devices);
}

// Every choice is kept as it is made (QSettings), so the next session starts from the same run.
void RunController::rememberChoices() {
  hold_->setChecked(kRunHold.get());
  connect(policy_, &QComboBox::currentTextChanged, this, [](const QString& t) { kRunPolicy.set(t.trimmed()); });
  connect(memory_, &QComboBox::currentTextChanged, this, [](const QString& t) { kRunMemory.set(t); });
  connect(max_attempts_, &QSpinBox::valueChanged, this, [](int v) { kRunMaxAttempts.set(v); });
  connect(patience_, &QSpinBox::valueChanged, this, [](int v) { kRunPatience.set(v); });
  connect(token_budget_, &QSpinBox::valueChanged, this, [](int v) { kRunTokenBudgetK.set(v); });
  connect(wall_minutes_, &QSpinBox::valueChanged, this, [](int v) { kRunWallMinutes.set(v); });
  connect(jobs_, &QSpinBox::valueChanged, this, [](int v) { kRunJobs.set(v); });
  connect(devices_, &QLineEdit::editingFinished, this, [this] { kRunDevices.set(devices_->text().trimmed()); });
  connect(hold_, &QCheckBox::toggled, this, [](bool on) { kRunHold.set(on); });
}

void RunController::reloadProfiles() {
  const QString typed = policy_->currentText();
  const QSignalBlocker b(policy_);
  policy_->clear();
  policy_->addItem("offline");
  try {
    for (const llm::Profile& p : llm::load_profiles(llm::settings_path())) policy_->addItem(QString::fromStdString(p.name));
  } catch (const std::exception&) {
    // a bad settings file: the run names the problem when a profile is chosen
  }
  policy_->setEditText(typed.isEmpty() ? QStringLiteral("offline") : typed);
}

// Start, pause, stop, the phase and progress, hints, approval, pin and fork, and the attempts and acts below.
void RunController::buildControls() {
  start_ = new QPushButton;
  pause_ = new QPushButton;
  pause_->setCheckable(true);
  stop_ = new QPushButton;
  buttons_ = new QHBoxLayout;
  buttons_->addWidget(start_);
  buttons_->addWidget(pause_);
  buttons_->addWidget(stop_);

  phase_ = new QLabel;
  phase_->setObjectName("run-phase");
  phase_->setTextFormat(Qt::PlainText);  // task names and the engine's messages
  phase_->setWordWrap(true);
  progress_ = new QProgressBar;
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setTextVisible(true);

  hint_ = new QLineEdit;
  send_hint_ = new QPushButton;
  hint_row_ = new QHBoxLayout;
  hint_row_->addWidget(hint_, 1);
  hint_row_->addWidget(send_hint_);
  hold_ = new QCheckBox;
  approve_ = new QPushButton;
  reject_ = new QPushButton;
  approval_ = new QHBoxLayout;
  approval_->addWidget(hold_, 1);
  approval_->addWidget(approve_);
  approval_->addWidget(reject_);
  pin_ = new QCheckBox;
  fork_label_ = new QLabel;
  fork_label_->setTextFormat(Qt::PlainText);
  fork_label_->setWordWrap(true);
  fork_label_->hide();  // shown once a fork is chosen

  attempt_view_ = makeTableView(this);
  attempt_view_->setModel(attempts_);
  steering_view_ = makeTableView(this);
  steering_view_->setModel(steering_);
  monitor_ = new RunMonitor;
  live_ = new LiveReplyPane;
}

// The run's choices scroll when the window is small; the buttons, phase and steering stay in sight below them;
// the tasks in flight with the device pool, and the attempts with the steering log, share the rest in a
// splitter (nothing has a fixed height).
void RunController::layOut() {
  choices_ = new QWidget;
  auto* cl = new QVBoxLayout(choices_);
  cl->setContentsMargins(0, 0, 0, 0);
  cl->addLayout(form_);
  cl->addStretch(1);
  auto* scroll = new QScrollArea;
  scroll->setWidget(choices_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumHeight(kChoicesStrip);

  // Tables ask for little height, so the whole controller fits a 700-high window; the attempts and the steering
  // log share one place as tabs, so the attempts get all of it.
  attempt_view_->setMinimumHeight(48);
  steering_view_->setMinimumHeight(48);
  live_->setMinimumHeight(48);  // below its contents' own: it shares a short window, clipped rather than pushing
  // The short columns as wide as their text; the kernel and the idea share the rest, elided in the middle, so
  // no sideways scroll bar takes a row's height.
  QHeaderView* cols = attempt_view_->horizontalHeader();
  cols->setSectionResizeMode(QHeaderView::ResizeToContents);
  cols->setSectionResizeMode(AttemptModel::Kernel, QHeaderView::Stretch);
  cols->setSectionResizeMode(AttemptModel::Idea, QHeaderView::Stretch);
  attempt_view_->setTextElideMode(Qt::ElideMiddle);
  attempt_view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  records_ = new QTabWidget;
  records_->setObjectName("run-records");
  records_->setDocumentMode(true);
  records_->addTab(attempt_view_, QString());
  records_->addTab(steering_view_, QString());
  auto* records = records_;
  split_ = new QSplitter(Qt::Vertical);
  split_->setObjectName("run-split");
  split_->addWidget(scroll);
  split_->addWidget(monitor_);
  split_->addWidget(live_);
  split_->addWidget(records);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 3);
  split_->setStretchFactor(2, 4);
  split_->setStretchFactor(3, 2);
  steer_ = new QWidget;
  auto* sl = new QVBoxLayout(steer_);
  sl->setContentsMargins(0, 0, 0, 0);
  sl->addLayout(buttons_);
  sl->addWidget(phase_);
  sl->addWidget(progress_);
  sl->addLayout(hint_row_);
  sl->addLayout(approval_);
  sl->addWidget(pin_);
  sl->addWidget(fork_label_);
  split_->insertWidget(1, steer_);
  split_->setStretchFactor(1, 0);
  split_->setCollapsible(1, false);  // the buttons and steering stay; a short window may fold the others away
  connect(split_, &QSplitter::splitterMoved, this, [this] { user_sized_ = true; });
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(4, 4, 4, 4);
  l->addWidget(split_, 1);
}

// Until a person drags a handle: the steering as tall as it needs; the choices, which matter before a run, as
// tall as they need up to a quarter of the rest, and folded to a strip during one. Offline, the attempts (with the
// steering log as a second tab) get room for kRecordRows rows at least (measured at 1024x700: with a share alone
// they showed one) and the tasks in flight the remainder. With a model's policy the live reply takes the most
// during a run (65%; the tasks 20%, the records 15%) and 40% otherwise.
void RunController::fitPanes() {
  if (user_sized_ || split_->height() <= 0) return;
  const int total = split_->height() - 4 * split_->handleWidth();
  const int steer = steer_->sizeHint().height();
  // The attempts' tab bar, header and kRecordRows rows; the tasks in flight at their smallest; then the choices
  // get what is left, from a strip up to half before a run (the policy, the memory arm and the budgets are what
  // matter then; a quarter left them scrolled away in a tall window).
  const int row = attempt_view_->verticalHeader()->defaultSectionSize();
  const int wanted = records_->tabBar()->sizeHint().height() + attempt_view_->horizontalHeader()->sizeHint().height() +
                     kRecordRows * row + 2 * attempt_view_->frameWidth() + 4;
  const int left = total - steer - wanted - monitor_->minimumSizeHint().height();
  const int choices =
      running_ ? kChoicesStrip
               : std::clamp(left, kChoicesStrip,
                            std::max(kChoicesStrip, std::min(choices_->sizeHint().height() + 4, (total - steer) / 2)));
  const int rest = std::max(0, total - steer - choices);
  if (live_->isHidden()) {
    const int records = std::min(rest, std::max(wanted, rest * 40 / 100));
    split_->setSizes({choices, steer, rest - records, 0, records});
    return;
  }
  // The tasks in flight at least as tall as they must be; during a run, the attempts and the steering log fold
  // away rather than squeeze the reply when a short window has no room for them.
  const int tasks = std::max(rest * (running_ ? 20 : 25) / 100, monitor_->minimumSizeHint().height());
  int kept = rest * (running_ ? 15 : 35) / 100;
  if (kept < records_->minimumSizeHint().height()) kept = running_ ? 0 : records_->minimumSizeHint().height();
  split_->setSizes({choices, steer, tasks, std::max(0, rest - tasks - kept), kept});
}

void RunController::updateLiveShown() {
  const bool shown = policy_->currentText().trimmed() != "offline" || live_->model()->rowCount() > 0;
  if (shown == !live_->isHidden()) return;
  live_->setVisible(shown);
  fitPanes();
}

void RunController::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  QTimer::singleShot(0, this, &RunController::fitPanes);
}

void RunController::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  QTimer::singleShot(0, this, &RunController::fitPanes);
}

// The steering acts a person takes, sent to the run's control.
void RunController::connectSteering() {
  connect(start_, &QPushButton::clicked, this, &RunController::start);
  connect(pause_, &QPushButton::toggled, this, [this](bool on) {
    if (control_) on ? control_->pause() : control_->resume();
    updateButtons();
  });
  connect(stop_, &QPushButton::clicked, this, [this] {
    if (control_) control_->stop();
    showPhase(QString(), tr("stopping: the running evaluation is cancelled"));
    updateButtons();
  });
  auto send = [this] {
    if (!control_ || hint_->text().trimmed().isEmpty()) return;
    control_->add_hint(hint_->text().trimmed().toStdString());
    hint_->clear();
  };
  connect(send_hint_, &QPushButton::clicked, this, send);
  connect(hint_, &QLineEdit::returnPressed, this, send);
  connect(hold_, &QCheckBox::toggled, this, [this](bool on) {
    if (control_) control_->set_hold(on);
    if (!on && held_) {  // a held candidate goes on as proposed
      held_.reset();
      updateButtons();
      emit candidateDecided();
    }
  });
  connect(pin_, &QCheckBox::toggled, this, [this](bool on) {
    if (control_) control_->pin(on);
  });
  connect(approve_, &QPushButton::clicked, this, [this] {
    if (!control_ || !held_) return;
    Proposal p = *held_;
    if (editedSource) p.source = editedSource().toStdString();
    decideHeld(p);
  });
  connect(reject_, &QPushButton::clicked, this, [this] {
    if (control_ && held_) decideHeld(std::nullopt);
  });
  // One task alone, from the tasks in flight: its hint is the one being written above.
  connect(monitor_, &RunMonitor::hintToTask, this, [this](const QString& task) {
    if (!control_) return;
    if (hint_->text().trimmed().isEmpty()) {
      showPhase(task, tr("write the hint in the hint field first"));
      hint_->setFocus();
      return;
    }
    control_->add_hint(hint_->text().trimmed().toStdString(), task.toStdString());
    hint_->clear();
  });
  connect(monitor_, &RunMonitor::steered, this, &RunController::showPhase);
  // The live reply follows the task a person selects among those in flight, and the other way round.
  connect(monitor_->inFlightView()->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    const std::string task = monitor_->selectedTask();
    if (!task.empty()) live_->showTask(task);
  });
  connect(live_, &LiveReplyPane::taskChosen, this,
          [this](const QString& task) { monitor_->selectTask(task.toStdString()); });
  connect(policy_, &QComboBox::currentTextChanged, this, &RunController::updateLiveShown);
}

// The held candidate of held_task_ goes on (as edited) or is rejected; another task's candidate that waits too
// is shown next.
void RunController::decideHeld(std::optional<Proposal> decision) {
  held_.reset();
  control_->decide(std::move(decision), held_task_);
  emit candidateDecided();
  const auto waiting = control_->all_held();
  for (const auto& [task, proposal] : waiting) {
    if (task == held_task_) continue;
    held_ = proposal;
    held_task_ = task;
    showPhase(QString::fromStdString(task), tr("held for approval: %1 (edit it in the editor, then Approve or Reject)")
                                                .arg(QString::fromStdString(proposal.name)));
    emit candidateHeld(QString::fromStdString(task), proposal);
    break;
  }
  updateButtons();
}

// What the engine reports of the run, shown as it comes.
void RunController::connectEngine() {
  connect(engine_, &Engine::loopPhase, this, [this](quint64 job, const QString& task, const QString& phase) {
    if (job != job_) return;
    showPhase(task, phaseText(phase.toStdString()));
    if (phase == "paused") {  // waiting: the bar says so rather than showing the last attempt's cases as done
      progress_->setRange(0, 1);
      progress_->setValue(0);
      progress_->setFormat(phaseText("paused"));
    }
    monitor_->phase(task.toStdString(), phase.toStdString());
  });
  connect(engine_, &Engine::loopIncumbent, this, [this](quint64 job, const QString& task, double speedup) {
    if (job == job_) monitor_->incumbent(task.toStdString(), speedup);
  });
  connect(engine_, &Engine::loopProgress, this, [this](quint64 job, const QString& task, const ProgressEvent& e) {
    if (job != job_) return;
    showProgress(task, e);
    monitor_->progress(task.toStdString(), e);
  });
  connect(engine_, &Engine::loopHeld, this, [this](quint64 job, const QString& task, const Proposal& p) {
    if (job != job_ || held_) return;  // one candidate in the editor at a time; the next after its decision
    held_ = p;
    held_task_ = task.toStdString();
    showPhase(task, tr("held for approval: %1 (edit it in the editor, then Approve or Reject)").arg(QString::fromStdString(p.name)));
    updateButtons();
    emit candidateHeld(task, p);
  });
  connect(engine_, &Engine::loopAttempt, this, [this](quint64 job, const QString& task, const Attempt& a) {
    if (job != job_) return;
    attempts_->append({task.toStdString(), a});
    attempt_view_->resizeColumnsToContents();
    monitor_->attempt(task.toStdString(), a);
    emit attemptFinished(task, a);
  });
  connect(engine_, &Engine::llmLive, this, [this](quint64 job, const LiveEvent& e) {
    if (job != job_) return;
    live_->apply(e);
    updateLiveShown();
  });
  connect(engine_, &Engine::steeringAct, this, [this](const SteeringAct& a) { steering_->append(a); });
  connect(engine_, &Engine::loopFinished, this, [this](quint64 job, qint64 run, const QVector<TaskOutcome>& out) {
    if (job != job_) return;
    last_run_ = run;
    monitor_->end(std::vector<TaskOutcome>(out.begin(), out.end()));
    const bool stopped = control_ && control_->stopped();
    setRunning(false);
    showPhase(QString(), stopped ? tr("run %1 stopped").arg(run) : tr("run %1 done").arg(run));
    engine_->loadSteering(run);
    emit runFinished(run);
  });
  connect(engine_, &Engine::steeringReady, this, [this](qint64 run, const QVector<SteeringAct>& acts) {
    if (run == last_run_) steering_->setRows(std::vector<SteeringAct>(acts.begin(), acts.end()));
  });
  connect(engine_, &Engine::jobFailed, this, [this](quint64 job, const QString& msg) {
    if (job != job_ || !running_) return;
    monitor_->end({});
    setRunning(false);
    showPhase(QString(), tr("the run failed: %1").arg(msg));
    emit runFinished(0);
  });
}

void RunController::checkTask(const std::string& task) {
  const int row = tasks_->rowOf(task);
  if (row >= 0) tasks_->setData(tasks_->index(row, 0), Qt::Checked, Qt::CheckStateRole);
}

void RunController::setCurrentTask(const std::string& task) {
  if (running_) return;
  for (int r = 0; r < tasks_->rowCount(); ++r)
    tasks_->setData(tasks_->index(r, 0), tasks_->at(r).name == task ? Qt::Checked : Qt::Unchecked, Qt::CheckStateRole);
}

void RunController::forkFrom(qint64 evaluationId) {
  if (control_ && running_) {
    control_->fork_from(evaluationId);
  } else {
    pending_fork_ = evaluationId;
  }
  fork_label_->setText(tr("The next attempt starts from evaluation %1 as the incumbent.").arg(evaluationId));
  fork_label_->show();
}

void RunController::start() {
  if (running_ || starting_) return;
  RunSettings s;
  s.tasks = tasks_->checkedTasks();
  if (s.tasks.empty()) {
    showPhase(QString(), tr("Choose at least one task to run."));
    return;
  }
  if (!checkDevices()) {
    showPhase(QString(), tr("The run did not start: %1").arg(devices_error_->text()));
    return;
  }
  s.devices = devices_->text().trimmed().toStdString();
  s.loop.jobs = jobs_->value();
  kRunJobs.set(jobs_->value());
  kRunDevices.set(devices_->text().trimmed());
  s.policy = policy_->currentText().trimmed().toStdString();
  s.memory = memory_->currentText().toStdString();
  s.loop.max_attempts = max_attempts_->value();
  s.loop.patience = patience_->value();
  s.loop.max_tokens_total = int64_t{token_budget_->value()} * 1000;
  s.loop.max_wall_seconds = 60.0 * wall_minutes_->value();
  if (evalOptions) s.loop.eval = evalOptions();
  if (s.policy == "offline" || s.policy.empty()) {
    begin(s);
    return;
  }
  // An LLM profile: its key from the system keychain when it holds one, else the profile's variable (read by
  // the core as the command line reads it). The keychain may take a moment (or ask to be unlocked).
  starting_ = true;
  updateButtons();
  const QString profile = QString::fromStdString(s.policy);
  showPhase(QString(), tr("reading the key of %1 from %2").arg(profile, KeyStore::where()));
  KeyStore::read(profile, this, [this, s](const KeyResult& r) mutable {
    starting_ = false;
    if (r.ok) s.api_key = llm::ApiKey{r.key.toStdString(), KeyStore::kOrigin};
    begin(s);
  });
}

void RunController::begin(const RunSettings& s) {
  control_ = std::make_shared<RunControl>();
  control_->set_hold(hold_->isChecked());
  control_->pin(pin_->isChecked());
  if (pending_fork_) control_->fork_from(*pending_fork_);
  pending_fork_.reset();
  attempts_->clear();
  live_->clear();
  steering_->setRows(control_->pending_acts());
  job_ = engine_->runLoop(*suite_, s, control_);
  const int tasks = static_cast<int>(s.tasks.size());
  monitor_->begin(control_, {tasks, s.loop.max_attempts, s.loop.max_tokens_total, s.loop.max_wall_seconds},
                  check_device_pool(s.devices).devices);
  setRunning(true);
  showPhase(QString::fromStdString(s.tasks.front()), phaseText("starting"));
  emit runStarted();
}

bool RunController::checkDevices() {
  const PoolCheck pool = check_device_pool(devices_->text().trimmed().toStdString());
  if (pool.error.empty() && !running_) monitor_->setPool(pool.devices);
  const std::string& why = pool.error;
  devices_error_->setText(QString::fromStdString(why));
  devices_error_->setVisible(!why.empty());
  return why.empty();
}

void RunController::setRunning(bool running) {
  running_ = running;
  fitPanes();
  if (!running) {
    held_.reset();
    const QSignalBlocker b(pause_);
    pause_->setChecked(false);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));
  }
  updateButtons();
}

void RunController::updateButtons() {
  start_->setEnabled(!running_ && !starting_);
  pause_->setEnabled(running_ && !(control_ && control_->stopped()));
  pause_->setText(pause_->isChecked() ? tr("Resume") : tr("Pause after attempt"));
  pause_->setToolTip(pause_->isChecked() ? tr("Go on with the next attempt")
                                         : tr("Let the running attempt finish, then wait"));
  stop_->setEnabled(running_ && !(control_ && control_->stopped()));
  // A hint reaches a running run's next prompt; with no run there is nobody to give it to, so none is typed.
  hint_->setEnabled(running_);
  hint_->setPlaceholderText(running_ ? tr("A hint for the next prompt") : tr("Hints go to a running run: start one first"));
  send_hint_->setEnabled(running_);
  approve_->setEnabled(running_ && held_.has_value());
  reject_->setEnabled(running_ && held_.has_value());
  const bool choosing = !running_ && !starting_;
  policy_->setEnabled(choosing);
  memory_->setEnabled(choosing);
  max_attempts_->setEnabled(choosing);
  for (QSpinBox* b : {patience_, token_budget_, wall_minutes_, jobs_}) b->setEnabled(choosing);
  devices_->setEnabled(choosing);
  task_view_->setEnabled(choosing);
}

void RunController::showPhase(const QString& task, const QString& phase) {
  phase_->setText(task.isEmpty() ? phase : tr("%1: %2").arg(task, phase));
  if (phase == phaseText("proposing")) {
    progress_->setFormat(QStringLiteral("%p%"));
    progress_->setRange(0, 0);  // busy until the evaluation reports its cases
  }
}

void RunController::showProgress(const QString& task, const ProgressEvent& e) {
  progress_->setFormat(QStringLiteral("%p%"));
  switch (e.phase) {
    case EvalProgress::Phase::Compiling:
      showPhase(task, phaseText("compiling"));
      progress_->setRange(0, 0);
      break;
    case EvalProgress::Phase::Compiled:
      break;
    case EvalProgress::Phase::Waiting:
      showPhase(task, phaseText("waiting"));
      break;
    case EvalProgress::Phase::Testing:
    case EvalProgress::Phase::Timing:
      showPhase(task, tr("%1 case %2 of %3 (%4)")
                          .arg(phaseText(e.phase == EvalProgress::Phase::Testing ? "testing" : "timing"))
                          .arg(e.case_index + 1)
                          .arg(e.case_count)
                          .arg(QString::fromStdString(e.case_name)));
      progress_->setRange(0, e.case_count);
      progress_->setValue(e.case_index);
      break;
    case EvalProgress::Phase::CaseDone:
      progress_->setRange(0, e.case_count);
      progress_->setValue(e.case_index + 1);
      break;
    case EvalProgress::Phase::Goldens:
      showPhase(task, tr("%1: %2 of %3 done (%4)")
                          .arg(phaseText("goldens"))
                          .arg(e.case_index)
                          .arg(e.case_count)
                          .arg(QString::fromStdString(e.case_name)));
      break;
    case EvalProgress::Phase::Done:
      break;
  }
}

void RunController::retranslate() {
  tasks_->retranslate();
  attempts_->retranslate();
  steering_->retranslate();
  records_->setTabText(0, tr("Attempts"));
  records_->setTabText(1, tr("Steering log"));
  tasks_label_->setText(tr("Tasks"));
  policy_label_->setText(tr("Policy"));
  policy_->setToolTip(tr("offline replays the shipped kernels; type an LLM profile name to use a model"));
  memory_label_->setText(tr("Memory"));
  attempts_label_->setText(tr("Attempts per task"));
  patience_label_->setText(tr("Patience (attempts without gain)"));
  tokens_label_->setText(tr("Token budget (thousands)"));
  wall_label_->setText(tr("Wall time (minutes)"));
  jobs_label_->setText(tr("Tasks at once"));
  jobs_->setToolTip(tr("How many tasks advance side by side (kope run --jobs); timing never overlaps on a device"));
  devices_label_->setText(tr("Devices"));
  devices_->setPlaceholderText(tr("cpu, cpu:0-3,cpu:4-7, cuda:0,1, ascend:0-7"));
  devices_->setToolTip(tr("The device pool (kope run --device): each timing slot measures one kernel at a time"));
  monitor_->retranslate();
  live_->retranslate();
  start_->setText(tr("Start run"));
  stop_->setText(tr("Stop now"));
  send_hint_->setText(tr("Send hint"));
  hold_->setText(tr("Hold each candidate for approval"));
  approve_->setText(tr("Approve"));
  reject_->setText(tr("Reject"));
  pin_->setText(tr("Pin the incumbent"));
  updateButtons();  // the pause button's and the hint field's texts follow the run's state
  if (!running_ && phase_->text().isEmpty()) phase_->setText(tr("No run yet."));
}

}  // namespace kope::ui
