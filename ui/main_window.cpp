#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>

#include "engine.h"
#include "kernel_editor.h"
#include "settings.h"
#include "speedup_chart.h"

namespace kope::ui {

namespace {

QString fmtNs(const std::optional<double>& ns) {
  if (!ns) return QStringLiteral("-");
  if (*ns < 1e3) return QString::number(*ns, 'f', 0) + " ns";
  if (*ns < 1e6) return QString::number(*ns / 1e3, 'f', 1) + " us";
  return QString::number(*ns / 1e6, 'f', 2) + " ms";
}

QString fmtX(const std::optional<double>& v) { return v ? QString::number(*v, 'f', 2) + "x" : QStringLiteral("-"); }

QTableWidgetItem* cell(const QString& text, const QColor& bg = QColor()) {
  auto* it = new QTableWidgetItem(text);
  it->setFlags(it->flags() & ~Qt::ItemIsEditable);
  if (bg.isValid()) it->setBackground(bg);
  return it;
}

QColor statusColor(const std::string& status) {
  if (status == "passed") return QColor(0xd8, 0xf0, 0xd8);
  if (status == "running") return QColor(0xf0, 0xf0, 0xd0);
  return QColor(0xf8, 0xd8, 0xd8);
}

QTableWidget* makeTable(QWidget* parent) {
  auto* t = new QTableWidget(parent);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->verticalHeader()->hide();
  t->horizontalHeader()->setStretchLastSection(true);
  return t;
}

constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kColumnRole = Qt::UserRole + 2;
constexpr int kKernelIdRole = Qt::UserRole + 3;

}  // namespace

MainWindow::MainWindow(Suite suite, std::filesystem::path workspace, QWidget* parent)
    : QMainWindow(parent), suite_(std::move(suite)) {
  engine_ = new Engine(std::move(workspace), this);
  base_options_.warmup = kWarmup.get();
  base_options_.reps = kReps.get();
  base_options_.case_timeout_seconds = kTimeoutSeconds.get();
  buildUi();
  retranslate();
  connect(engine_, &Engine::busyChanged, this, &MainWindow::setBusy);
  connect(engine_, &Engine::evaluationFinished, this,
          [this](quint64, qint64 id, const EvalReport& rep) { showReport(id, rep); });
  connect(engine_, &Engine::loopAttempt, this,
          [this](quint64, const QString& task, const Attempt& a) { addLoopAttempt(task, a); });
  connect(engine_, &Engine::loopFinished, this, [this](quint64, const QVector<TaskOutcome>&) {
    refreshHistory();
    emit loopDone();
  });
  connect(engine_, &Engine::jobFailed, this, [this](quint64, const QString& msg) { showError(msg); });
  connect(engine_, &Engine::historyReady, this, &MainWindow::showHistory);
  connect(engine_, &Engine::kernelLoaded, this, [this](qint64 id, const QString& text) {
    editor_->setText(text);
    kernel_path_.clear();
    statusBar()->showMessage(tr("Loaded kernel version %1 from the workspace").arg(id), 5000);
  });
  restoreGeometry(kWindowGeometry.get());
  restoreState(kWindowState.get());
  if (!suite_.tasks().empty()) selectTask(QString::fromStdString(suite_.tasks().front().name));
}

MainWindow::~MainWindow() = default;

void MainWindow::buildUi() {
  resize(1280, 820);
  setObjectName("kope-workbench");

  tasks_ = new QListWidget;
  tasks_->setObjectName("tasks");
  for (const Task& t : suite_.tasks()) {
    auto* item = new QListWidgetItem(QString("L%1  %2").arg(t.level).arg(QString::fromStdString(t.name)));
    item->setData(Qt::UserRole, QString::fromStdString(t.name));
    item->setToolTip(QString::fromStdString(t.summary));
    tasks_->addItem(item);
  }
  auto* task_dock = new QDockWidget(this);
  task_dock->setObjectName("task-dock");
  task_dock->setWidget(tasks_);
  task_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::LeftDockWidgetArea, task_dock);
  connect(tasks_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
    if (!item) return;
    if (const Task* t = suite_.find(item->data(Qt::UserRole).toString().toStdString())) showTask(*t);
  });

  editor_ = new KernelEditor;
  editor_->setObjectName("editor");

  cases_ = makeTable(this);
  cases_->setColumnCount(7);
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* cases_page = new QWidget;
  auto* cl = new QVBoxLayout(cases_page);
  cl->setContentsMargins(4, 4, 4, 4);
  cl->addWidget(summary_);
  cl->addWidget(cases_);

  diagnostics_ = new QListWidget;
  diagnostics_->setObjectName("diagnostics");
  connect(diagnostics_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    const int line = item->data(kLineRole).toInt();
    if (line > 0) editor_->goToDiagnostic(line, item->data(kColumnRole).toInt());
  });

  chart_ = new SpeedupChart;
  loop_ = makeTable(this);
  loop_->setColumnCount(6);
  history_ = makeTable(this);
  history_->setColumnCount(6);
  connect(history_, &QTableWidget::cellActivated, this, [this](int row, int) {
    if (auto* it = history_->item(row, 0)) engine_->loadKernel(it->data(kKernelIdRole).toLongLong());
  });
  task_info_ = new QTextBrowser;

  tabs_ = new QTabWidget;
  tabs_->addTab(cases_page, QString());
  tabs_->addTab(diagnostics_, QString());
  tabs_->addTab(chart_, QString());
  tabs_->addTab(loop_, QString());
  tabs_->addTab(history_, QString());
  tabs_->addTab(task_info_, QString());

  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(editor_);
  split->addWidget(tabs_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setCentralWidget(split);

  open_ = new QAction(this);
  open_->setShortcut(QKeySequence::Open);
  connect(open_, &QAction::triggered, this, &MainWindow::openKernel);
  save_ = new QAction(this);
  save_->setShortcut(QKeySequence::Save);
  connect(save_, &QAction::triggered, this, &MainWindow::saveKernel);
  evaluate_ = new QAction(this);
  evaluate_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
  connect(evaluate_, &QAction::triggered, this, &MainWindow::evaluate);
  run_loop_ = new QAction(this);
  connect(run_loop_, &QAction::triggered, this, &MainWindow::runLoop);
  load_candidate_ = new QAction(this);
  connect(load_candidate_, &QAction::triggered, this, [this] { loadCandidate(candidates_->currentText()); });
  quit_ = new QAction(this);
  quit_->setShortcut(QKeySequence::Quit);
  connect(quit_, &QAction::triggered, this, &QWidget::close);

  candidates_ = new QComboBox;
  candidates_->setMinimumContentsLength(28);
  warmup_ = new QSpinBox;
  warmup_->setRange(0, 1000);
  warmup_->setValue(base_options_.warmup);
  reps_ = new QSpinBox;
  reps_->setRange(1, 10000);
  reps_->setValue(base_options_.reps);
  timeout_ = new QSpinBox;
  timeout_->setRange(1, 86400);
  timeout_->setValue(static_cast<int>(base_options_.case_timeout_seconds));
  warmup_label_ = new QLabel;
  reps_label_ = new QLabel;
  timeout_label_ = new QLabel;
  candidates_label_ = new QLabel;

  auto* bar = addToolBar(QString());
  bar->setObjectName("main-toolbar");
  bar->addAction(open_);
  bar->addAction(save_);
  bar->addSeparator();
  bar->addAction(evaluate_);
  bar->addAction(run_loop_);
  bar->addSeparator();
  bar->addWidget(candidates_label_);
  bar->addWidget(candidates_);
  bar->addAction(load_candidate_);
  auto* opts = addToolBar(QString());
  opts->setObjectName("options-toolbar");
  opts->addWidget(warmup_label_);
  opts->addWidget(warmup_);
  opts->addWidget(reps_label_);
  opts->addWidget(reps_);
  opts->addWidget(timeout_label_);
  opts->addWidget(timeout_);

  auto* file_menu = menuBar()->addMenu(QString());
  file_menu->setObjectName("file-menu");
  file_menu->addAction(open_);
  file_menu->addAction(save_);
  file_menu->addSeparator();
  file_menu->addAction(quit_);
  auto* kernel_menu = menuBar()->addMenu(QString());
  kernel_menu->setObjectName("kernel-menu");
  kernel_menu->addAction(evaluate_);
  kernel_menu->addAction(run_loop_);
  kernel_menu->addAction(load_candidate_);

  busy_label_ = new QLabel;
  workspace_label_ = new QLabel(QString::fromStdString(engine_->workspace().string()));
  statusBar()->addWidget(busy_label_);
  statusBar()->addPermanentWidget(workspace_label_);
}

void MainWindow::retranslate() {
  setWindowTitle(tr("Kope Workbench"));
  if (auto* dock = findChild<QDockWidget*>("task-dock")) dock->setWindowTitle(tr("Tasks"));
  cases_->setHorizontalHeaderLabels({tr("Case"), tr("Status"), tr("Max rel. error"), tr("Baseline"), tr("Kernel"),
                                     tr("Speedup"), tr("Message")});
  loop_->setHorizontalHeaderLabels({tr("Task"), tr("Kernel"), tr("Status"), tr("Speedup"), tr("Promoted"), tr("Idea")});
  history_->setHorizontalHeaderLabels({tr("Id"), tr("Task"), tr("Status"), tr("Speedup"), tr("Started"), tr("Kernel")});
  tabs_->setTabText(0, tr("Cases"));
  tabs_->setTabText(1, tr("Diagnostics"));
  tabs_->setTabText(2, tr("Chart"));
  tabs_->setTabText(3, tr("Loop"));
  tabs_->setTabText(4, tr("History"));
  tabs_->setTabText(5, tr("Task"));
  open_->setText(tr("&Open kernel..."));
  save_->setText(tr("&Save kernel"));
  evaluate_->setText(tr("&Evaluate"));
  evaluate_->setToolTip(tr("Compile, check against the fp64 golden and time against the baseline (Ctrl+R)"));
  run_loop_->setText(tr("Run &loop"));
  run_loop_->setToolTip(tr("The optimisation loop on this task with the offline policy"));
  load_candidate_->setText(tr("Load"));
  quit_->setText(tr("&Quit"));
  candidates_label_->setText(tr(" Shipped kernels: "));
  warmup_label_->setText(tr(" Warm-ups: "));
  reps_label_->setText(tr(" Timed runs: "));
  timeout_label_->setText(tr(" Timeout (s): "));
  if (auto* m = menuBar()->findChild<QMenu*>("file-menu")) m->setTitle(tr("&File"));
  if (auto* m = menuBar()->findChild<QMenu*>("kernel-menu")) m->setTitle(tr("&Kernel"));
  setBusy(engine_->busy());
  if (summary_->text().isEmpty()) summary_->setText(tr("No evaluation yet. Write or load a kernel and press Evaluate."));
}

void MainWindow::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  kWindowGeometry.set(saveGeometry());
  kWindowState.set(saveState());
  kWarmup.set(warmup_->value());
  kReps.set(reps_->value());
  kTimeoutSeconds.set(timeout_->value());
  QMainWindow::closeEvent(event);
}

bool MainWindow::selectTask(const QString& name) {
  for (int i = 0; i < tasks_->count(); ++i)
    if (tasks_->item(i)->data(Qt::UserRole).toString() == name) {
      tasks_->setCurrentRow(i);
      return true;
    }
  return false;
}

const Task* MainWindow::currentTask() const {
  auto* item = tasks_->currentItem();
  return item ? suite_.find(item->data(Qt::UserRole).toString().toStdString()) : nullptr;
}

void MainWindow::showTask(const Task& task) {
  candidates_->clear();
  for (const auto& c : embedded_candidates(task.name)) {
    candidates_->addItem(QString::fromStdString(c.name));
    candidates_->setItemData(candidates_->count() - 1, QString::fromStdString(c.thought), Qt::ToolTipRole);
  }
  QString html = QString("<h3>%1</h3><p>%2</p><p><b>%3</b></p><ul>")
                     .arg(QString::fromStdString(task.name).toHtmlEscaped(),
                          QString::fromStdString(task.summary).toHtmlEscaped(), tr("Cases"));
  for (const Case& c : task.cases) {
    ConcreteCase cc = resolve_case(task, c);
    QStringList parts;
    for (const auto& t : cc.inputs) {
      QStringList dims;
      for (auto d : t.shape) dims << QString::number(d);
      parts << QString("%1 %2[%3]").arg(QString::fromStdString(t.name), QString::fromStdString(std::string(dtype_name(t.dtype))), dims.join(", "));
    }
    html += QString("<li><code>%1</code>: %2</li>").arg(QString::fromStdString(c.name).toHtmlEscaped(), parts.join("; ").toHtmlEscaped());
  }
  html += QString("</ul><p><b>%1</b></p><pre>%2</pre>").arg(tr("Reference"), QString::fromStdString(task.reference).toHtmlEscaped());
  task_info_->setHtml(html);
  refreshHistory();
}

bool MainWindow::loadKernelFile(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    showError(tr("Cannot read the kernel file %1: %2").arg(path, f.errorString()));
    return false;
  }
  editor_->setText(QString::fromUtf8(f.readAll()));
  kernel_path_ = path;
  kLastKernelDir.set(QFileInfo(path).absolutePath());
  statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
  return true;
}

bool MainWindow::loadCandidate(const QString& name) {
  const Task* task = currentTask();
  if (!task) return false;
  for (const auto& c : embedded_candidates(task->name))
    if (QString::fromStdString(c.name) == name) {
      editor_->setText(QString::fromStdString(c.source));
      kernel_path_.clear();
      candidates_->setCurrentText(name);
      return true;
    }
  return false;
}

void MainWindow::openKernel() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel"), kLastKernelDir.get(),
                                                    tr("C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)"));
  if (!path.isEmpty()) loadKernelFile(path);
}

bool MainWindow::saveKernel() {
  QString path = kernel_path_;
  if (path.isEmpty()) {
    path = QFileDialog::getSaveFileName(this, tr("Save kernel"), kLastKernelDir.get(), tr("C++ sources (*.cpp)"));
    if (path.isEmpty()) return false;
  }
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(editor_->text().toUtf8()) < 0 || !f.commit()) {
    showError(tr("Cannot write the kernel file %1: %2").arg(path, f.errorString()));
    return false;
  }
  kernel_path_ = path;
  kLastKernelDir.set(QFileInfo(path).absolutePath());
  statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  return true;
}

QString MainWindow::kernelName() const {
  return kernel_path_.isEmpty() ? QStringLiteral("untitled.cpp") : kernel_path_;
}

void MainWindow::setEvalOptions(const EvalOptions& options) {
  base_options_ = options;
  warmup_->setValue(options.warmup);
  reps_->setValue(options.reps);
  timeout_->setValue(static_cast<int>(options.case_timeout_seconds));
}

EvalOptions MainWindow::evalOptions() const {
  EvalOptions o = base_options_;
  o.warmup = warmup_->value();
  o.reps = reps_->value();
  o.case_timeout_seconds = timeout_->value();
  return o;
}

void MainWindow::evaluate() {
  const Task* task = currentTask();
  if (!task) {
    showError(tr("Select a task first."));
    return;
  }
  const QString source = editor_->text();
  if (source.trimmed().isEmpty()) {
    showError(tr("The kernel is empty: write one or load a shipped kernel."));
    return;
  }
  editor_->clearDiagnosticMarks();
  summary_->setText(tr("Evaluating %1 on %2...").arg(kernelName(), QString::fromStdString(task->name)));
  engine_->evaluate(*task, source.toStdString(), kernelName().toStdString(), evalOptions());
}

void MainWindow::runLoop() {
  const Task* task = currentTask();
  if (!task) {
    showError(tr("Select a task first."));
    return;
  }
  LoopOptions lo;
  lo.eval = evalOptions();
  loop_->setRowCount(0);
  tabs_->setCurrentWidget(loop_);
  engine_->runLoop(suite_, task->name, lo);
}

void MainWindow::showReport(qint64 evaluationId, const EvalReport& rep) {
  cases_->setRowCount(0);
  diagnostics_->clear();
  for (const CaseResult& c : rep.cases) {
    const int row = cases_->rowCount();
    cases_->insertRow(row);
    double max_rel = 0;
    for (const auto& o : c.outputs) max_rel = std::max(max_rel, o.max_rel);
    const std::string st(case_status_name(c.status));
    cases_->setItem(row, 0, cell(QString::fromStdString(c.name)));
    cases_->setItem(row, 1, cell(QString::fromStdString(st), statusColor(st)));
    cases_->setItem(row, 2, cell(c.outputs.empty() ? "-" : QString::number(max_rel, 'g', 3)));
    cases_->setItem(row, 3, cell(fmtNs(c.baseline_median_ns)));
    cases_->setItem(row, 4, cell(fmtNs(c.kernel_median_ns)));
    auto* speed = cell(fmtX(c.speedup));
    if (c.speedup_interval)
      speed->setToolTip(tr("95% interval: %1 to %2").arg(fmtX(c.speedup_interval->first), fmtX(c.speedup_interval->second)));
    cases_->setItem(row, 5, speed);
    cases_->setItem(row, 6, cell(QString::fromStdString(c.message)));
  }
  cases_->resizeColumnsToContents();
  const std::string name = kernelName().toStdString();
  for (const Diagnostic& d : rep.compile.diagnostics) {
    auto* item = new QListWidgetItem(QString("%1:%2:%3: %4: %5")
                                         .arg(QString::fromStdString(d.file)).arg(d.line).arg(d.column)
                                         .arg(QString::fromStdString(d.severity), QString::fromStdString(d.message)));
    if (d.file == name) {
      item->setData(kLineRole, d.line);
      item->setData(kColumnRole, d.column);
      if (d.severity == "error" || d.severity == "fatal error") editor_->goToDiagnostic(d.line, d.column);
    }
    diagnostics_->addItem(item);
  }
  if (!rep.compiled && rep.compile.diagnostics.empty())
    diagnostics_->addItem(QString::fromStdString(rep.compile.error));
  chart_->showReport(rep);
  QString text;
  if (!rep.compiled) {
    text = tr("Did not compile: %1").arg(QString::fromStdString(rep.compile.error));
    tabs_->setCurrentWidget(diagnostics_);
  } else {
    text = tr("Result: %1").arg(QString::fromStdString(rep.status()));
    if (auto s = rep.speedup()) text += tr(", speedup %1 (geometric mean over %2 cases)").arg(fmtX(s)).arg(rep.cases.size());
    text += tr(", score %1").arg(rep.score(), 0, 'f', 1);
    for (const auto& w : rep.warnings) text += "\n" + tr("Warning: %1").arg(QString::fromStdString(w));
    tabs_->setCurrentIndex(0);
  }
  text += "\n" + tr("Recorded as evaluation %1.").arg(evaluationId);
  summary_->setText(text);
  refreshHistory();
  emit reportShown(evaluationId);
}

void MainWindow::addLoopAttempt(const QString& task, const Attempt& a) {
  const int row = loop_->rowCount();
  loop_->insertRow(row);
  loop_->setItem(row, 0, cell(task));
  loop_->setItem(row, 1, cell(QString::fromStdString(a.name)));
  loop_->setItem(row, 2, cell(QString::fromStdString(a.status), statusColor(a.status)));
  loop_->setItem(row, 3, cell(fmtX(a.speedup)));
  loop_->setItem(row, 4, cell(a.promoted ? tr("yes") : QString()));
  loop_->setItem(row, 5, cell(QString::fromStdString(a.thought)));
  loop_->resizeColumnsToContents();
}

void MainWindow::refreshHistory() {
  const Task* task = currentTask();
  engine_->refreshHistory(task ? std::optional<std::string>(task->name) : std::nullopt);
}

void MainWindow::showHistory(const QVector<EvaluationRow>& rows) {
  history_->setRowCount(0);
  for (const EvaluationRow& r : rows) {
    const int row = history_->rowCount();
    history_->insertRow(row);
    auto* id = cell(QString::number(r.id));
    id->setData(kKernelIdRole, QVariant::fromValue<qlonglong>(r.kernel_id));
    history_->setItem(row, 0, id);
    history_->setItem(row, 1, cell(QString::fromStdString(r.task)));
    history_->setItem(row, 2, cell(QString::fromStdString(r.status), statusColor(r.status)));
    history_->setItem(row, 3, cell(fmtX(r.speedup)));
    history_->setItem(row, 4, cell(QString::fromStdString(r.started_at)));
    history_->setItem(row, 5, cell(QString::fromStdString(r.kernel_origin)));
  }
  history_->resizeColumnsToContents();
  emit historyShown(history_->rowCount());
}

void MainWindow::showError(const QString& message) {
  summary_->setText(tr("Error: %1").arg(message));
  statusBar()->showMessage(message, 10000);
  emit errorShown(message);
}

void MainWindow::setBusy(bool busy) {
  busy_label_->setText(busy ? tr("Working...") : tr("Idle"));
  evaluate_->setEnabled(true);  // a new evaluation supersedes the pending one
  run_loop_->setEnabled(!busy);
}

}  // namespace kope::ui
