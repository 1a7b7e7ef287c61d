#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>

#include "graph/graph_widget.h"
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include "charts/speedup_chart.h"
#include "doctor/doctor_dialog.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "kope/base/format.h"
#include "kope/base/sha256.h"
#include "models/models.h"
#include "models/status.h"
#include "settings.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/run_controller.h"

using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

namespace kope::ui {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

MainWindow::MainWindow(Suite suite, std::filesystem::path workspace, QWidget* parent)
    : QMainWindow(parent), suite_(std::move(suite)) {
  engine_ = new Engine(std::move(workspace), this);
  base_options_.warmup = kWarmup.get();
  base_options_.reps = kReps.get();
  base_options_.case_timeout_seconds = kTimeoutSeconds.get();
  askUnsaved = [this](const QString& question) {
    QMessageBox box(QMessageBox::Question, tr("Unsaved changes"), question,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setDefaultButton(QMessageBox::Save);
    box.setTextFormat(Qt::PlainText);
    return static_cast<QMessageBox::StandardButton>(box.exec());
  };
  askSavePath = [this] {
    return QFileDialog::getSaveFileName(this, tr("Save kernel"), kLastKernelDir.get(), tr("C++ sources (*.cpp)"));
  };
  buildUi();
  retranslate();
  connect(engine_, &Engine::busyChanged, this, &MainWindow::setBusy);
  connect(engine_, &Engine::evaluationProgress, this, [this](quint64, const ProgressEvent& e) { showProgress(e); });
  connect(engine_, &Engine::evaluationFinished, this, [this](quint64, qint64 id, const EvalReport& rep) {
    showReport(id, rep, evaluating_kernel_, evaluating_source_);
  });
  connect(engine_, &Engine::evaluationCancelled, this, [this](quint64) {
    header_->setEmpty(q(current_task_));
    cases_->setSummary(tr("Evaluation cancelled. It is recorded in the workspace; its results are not shown."));
    compile_->clear();
    statusBar()->showMessage(tr("Evaluation cancelled"), 5000);
  });
  connect(engine_, &Engine::jobFailed, this, [this](quint64, const QString& msg) { showError(msg); });
  connect(engine_, &Engine::historyReady, this, [this](const QVector<EvaluationRow>& rows) {
    history_->model()->setRows(std::vector<EvaluationRow>(rows.begin(), rows.end()));
    emit historyShown(static_cast<int>(rows.size()));
  });
  connect(engine_, &Engine::runsReady, this, [this](const QVector<RunRow>& rows) {
    history_->runs()->setRows(std::vector<RunRow>(rows.begin(), rows.end()));
  });
  connect(engine_, &Engine::evaluationLoaded, this, &MainWindow::showLoaded);
  connect(engine_, &Engine::comparisonReady, this, [this](const Comparison& c, const QString& a, const QString& b) {
    compare_->showComparison(c, a, b);
    tabs_->setCurrentWidget(compare_);
    emit comparisonShown();
  });
  resizeDocks({task_dock_, run_dock_}, {170, 390}, Qt::Horizontal);
  restoreGeometry(kWindowGeometry.get());
  restoreState(kWindowState.get());
  if (!suite_.tasks().empty()) selectTask(q(suite_.tasks().front().name));
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildUi() {
  resize(1440, 900);
  setObjectName("kope-workbench");

  buildTaskDock();
  buildCentre();
  buildRunDocks();
  buildActions();
  buildBars();
}

// The task list, docked on the left; switching tasks asks about unsaved edits first.
void MainWindow::buildTaskDock() {
  task_model_ = new TaskModel(this);
  task_model_->setCheckable(false);
  std::vector<TaskRow> rows;
  for (const Task& t : suite_.tasks()) rows.push_back({t.name, t.level, t.summary, false});
  task_model_->setRows(rows);
  task_view_ = new QListView;
  task_view_->setObjectName("tasks");
  task_view_->setModel(task_model_);
  task_dock_ = new QDockWidget(this);
  task_dock_->setObjectName("task-dock");
  task_dock_->setWidget(task_view_);
  task_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  addDockWidget(Qt::LeftDockWidgetArea, task_dock_);
  connect(task_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& cur, const QModelIndex& prev) {
            if (switching_ || !cur.isValid()) return;
            const std::string name = task_model_->at(cur.row()).name;
            if (name == current_task_) return;
            if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before switching to task %1?").arg(q(name)))) {
              switching_ = true;
              task_view_->setCurrentIndex(prev);
              switching_ = false;
              return;
            }
            if (const Task* t = suite_.find(name)) showTask(*t);
          });
}

// The editor above the results: the header and the tabs of cases, compile, profile, chart, history, comparison.
void MainWindow::buildCentre() {
  editor_ = new KernelEditor;
  editor_->setObjectName("editor");
  connect(editor_, &QsciScintilla::modificationChanged, this, [this](bool) { updateTitle(); });
  connect(editor_, &QsciScintilla::textChanged, this, &MainWindow::editorChanged);

  header_ = new ResultsHeader;
  cases_ = new CasesPane;
  compile_ = new CompilePane;
  connect(compile_, &CompilePane::diagnosticActivated, this,
          [this](int line, int col) { editor_->goToDiagnostic(line, col); });
  profile_ = new ProfilePane(cases_->model());
  chart_ = new SpeedupChart;
  history_ = new HistoryPane;
  connect(history_, &HistoryPane::restoreRequested, this, &MainWindow::restoreEvaluation);
  connect(history_, &HistoryPane::compareRequested, engine_, &Engine::compare);
  connect(history_, &HistoryPane::compareWithIncumbentRequested, this,
          [this](qint64 id) { engine_->compareWithIncumbent(current_task_, id); });
  connect(history_, &HistoryPane::forkRequested, this, [this](qint64 id) {
    run_->checkTask(current_task_);
    run_->forkFrom(id);
    run_dock_->show();
    run_dock_->raise();
  });
  compare_ = new ComparePane;
  task_info_ = new QTextBrowser;

  tabs_ = new QTabWidget;
  tabs_->addTab(cases_, QString());
  tabs_->addTab(compile_, QString());
  tabs_->addTab(profile_, QString());
  tabs_->addTab(chart_, QString());
  tabs_->addTab(history_, QString());
  tabs_->addTab(compare_, QString());
  tabs_->addTab(task_info_, QString());

  auto* results = new QWidget;
  auto* rl = new QVBoxLayout(results);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->setSpacing(2);
  rl->addWidget(header_);
  rl->addWidget(tabs_, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->addWidget(editor_);
  split->addWidget(results);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  setCentralWidget(split);
}

// The run controller and the Experience Graph Memory, tabbed on the right; their acts reach the editor.
void MainWindow::buildRunDocks() {
  run_ = new RunController(engine_, &suite_);
  run_->evalOptions = [this] { return evalOptions(); };
  run_->editedSource = [this] { return editor_->text(); };
  connect(run_, &RunController::candidateHeld, this, [this](const QString& task, const Proposal& p) {
    if (q(current_task_) != task && !selectTask(task)) return;
    if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before the held candidate replaces them?"))) return;
    setEditorText(q(p.source), QString());
    candidate_name_ = q(p.name);
    candidate_source_ = q(p.source);
    clearResults(tr("Candidate %1 is held for approval: edit it here, then Approve or Reject in the run controller.")
                     .arg(q(p.name)));
    updateTitle();
  });
  connect(run_, &RunController::candidateDecided, this, [this] {
    cases_->setSummary(tr("The candidate went on to the loop as it stands in the editor (or was rejected); its "
                          "attempt appears in the run controller."));
  });
  connect(run_, &RunController::attemptFinished, this, [this](const QString& task, const Attempt&) {
    if (task.toStdString() == current_task_) refreshHistory();
  });
  connect(run_, &RunController::runFinished, this, [this](qint64) {
    refreshHistory();
    engine_->refreshRuns();
  });
  run_dock_ = new QDockWidget(this);
  run_dock_->setObjectName("run-dock");
  run_dock_->setWidget(run_);
  run_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                         QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::RightDockWidgetArea, run_dock_);

  // The Experience Graph Memory, browsed and pruned beside the run; its acts reach the editor, the comparison
  // and the run controller.
  auto* graph = new kope::graph::GraphWidget(this);
  graph->openWorkspace(engine_->workspace());
  graph_dock_ = new QDockWidget(this);
  graph_dock_->setObjectName("graph-dock");
  graph_dock_->setWidget(graph);
  graph_dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                           QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::RightDockWidgetArea, graph_dock_);
  tabifyDockWidget(run_dock_, graph_dock_);
  run_dock_->raise();
  connect(graph, &kope::graph::GraphWidget::compare, engine_, &Engine::compare);
  connect(graph, &kope::graph::GraphWidget::forkFrom, this, [this](qint64 id) {
    run_->checkTask(current_task_);
    run_->forkFrom(id);
    run_dock_->show();
    run_dock_->raise();
  });
  connect(graph, &kope::graph::GraphWidget::openInEditor, this, [this](qint64, const QString& source) {
    if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before opening this Case's kernel?"))) return;
    setEditorText(source, QString());
    clearResults(tr("A kernel from the experience graph: evaluate it to see its results here."));
    updateTitle();
  });
}

// The actions and the evaluation options.
void MainWindow::buildActions() {
  open_ = new QAction(this);
  open_->setShortcut(QKeySequence::Open);
  connect(open_, &QAction::triggered, this, &MainWindow::openKernel);
  save_ = new QAction(this);
  save_->setShortcut(QKeySequence::Save);
  connect(save_, &QAction::triggered, this, &MainWindow::saveKernel);
  evaluate_ = new QAction(this);
  evaluate_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
  connect(evaluate_, &QAction::triggered, this, &MainWindow::evaluate);
  cancel_ = new QAction(this);
  cancel_->setShortcut(QKeySequence(Qt::Key_Escape));
  cancel_->setEnabled(false);
  connect(cancel_, &QAction::triggered, this, &MainWindow::cancelEvaluation);
  load_candidate_ = new QAction(this);
  connect(load_candidate_, &QAction::triggered, this, [this] { loadCandidate(candidates_->currentText()); });
  quit_ = new QAction(this);
  quit_->setShortcut(QKeySequence::Quit);
  connect(quit_, &QAction::triggered, this, &QWidget::close);
  addAction(quit_);
  machine_check_ = new QAction(this);
  connect(machine_check_, &QAction::triggered, this, &MainWindow::showMachineCheck);

  candidates_ = new QComboBox;
  candidates_->setMinimumContentsLength(26);
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
}

// Toolbars, menus and the status bar over the actions.
void MainWindow::buildBars() {
  auto* bar = addToolBar(QString());
  bar->setObjectName("main-toolbar");
  bar->addAction(open_);
  bar->addAction(save_);
  bar->addSeparator();
  bar->addAction(evaluate_);
  bar->addAction(cancel_);
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
  kernel_menu->addAction(cancel_);
  kernel_menu->addAction(load_candidate_);
  auto* view_menu = menuBar()->addMenu(QString());
  view_menu->setObjectName("view-menu");
  view_menu->addAction(task_dock_->toggleViewAction());
  view_menu->addAction(run_dock_->toggleViewAction());
  auto* help_menu = menuBar()->addMenu(QString());
  help_menu->setObjectName("help-menu");
  help_menu->addAction(machine_check_);

  busy_label_ = new QLabel;
  workspace_label_ = new QLabel(q(engine_->workspace().string()));
  workspace_label_->setObjectName("workspace-label");
  workspace_label_->setTextFormat(Qt::PlainText);  // a configured path: never markup
  busy_label_->setTextFormat(Qt::PlainText);
  statusBar()->addWidget(busy_label_);
  statusBar()->addPermanentWidget(workspace_label_);
}

void MainWindow::retranslate() {
  task_dock_->setWindowTitle(tr("Tasks"));
  run_dock_->setWindowTitle(tr("Run controller"));
  graph_dock_->setWindowTitle(tr("Experience graph"));
  tabs_->setTabText(tabs_->indexOf(cases_), tr("Cases"));
  tabs_->setTabText(tabs_->indexOf(compile_), tr("Compile"));
  tabs_->setTabText(tabs_->indexOf(profile_), tr("Profile"));
  tabs_->setTabText(tabs_->indexOf(chart_), tr("Chart"));
  tabs_->setTabText(tabs_->indexOf(history_), tr("History"));
  tabs_->setTabText(tabs_->indexOf(compare_), tr("Compare"));
  tabs_->setTabText(tabs_->indexOf(task_info_), tr("Task"));
  open_->setText(tr("&Open kernel..."));
  save_->setText(tr("&Save kernel"));
  evaluate_->setText(tr("&Evaluate"));
  evaluate_->setToolTip(tr("Compile, check against the fp64 golden and time against the baseline (Ctrl+R)"));
  cancel_->setText(tr("&Cancel evaluation"));
  cancel_->setToolTip(tr("Stop the running evaluation (Esc)"));
  load_candidate_->setText(tr("Load"));
  quit_->setText(tr("&Quit"));
  machine_check_->setText(tr("&Machine check..."));
  machine_check_->setToolTip(tr("What this machine gives kope: compiler, library baseline, sandbox, timing conditions, devices (kope doctor)"));
  candidates_label_->setText(tr(" Shipped kernels: "));
  warmup_label_->setText(tr(" Warm-ups: "));
  reps_label_->setText(tr(" Timed runs: "));
  timeout_label_->setText(tr(" Timeout (s): "));
  if (auto* m = menuBar()->findChild<QMenu*>("file-menu")) m->setTitle(tr("&File"));
  if (auto* m = menuBar()->findChild<QMenu*>("kernel-menu")) m->setTitle(tr("&Kernel"));
  if (auto* m = menuBar()->findChild<QMenu*>("view-menu")) m->setTitle(tr("&View"));
  if (auto* m = menuBar()->findChild<QMenu*>("help-menu")) m->setTitle(tr("&Help"));
  task_model_->retranslate();
  header_->retranslate();
  cases_->retranslate();
  compile_->retranslate();
  profile_->retranslate();
  history_->retranslate();
  compare_->retranslate();
  run_->retranslate();
  setBusy(engine_->busy());
  if (cases_->summary()->text().isEmpty()) cases_->setSummary(tr("No evaluation yet. Write or load a kernel and press Evaluate."));
  updateTitle();
}

void MainWindow::showMachineCheck() {
  if (!doctor_) doctor_ = new DoctorDialog(this);  // runs the checks as it opens
  else doctor_->refresh();
  doctor_->show();
  doctor_->raise();
  doctor_->activateWindow();
}

void MainWindow::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange && tabs_) retranslate();
  QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before quitting?"))) {
    event->ignore();
    return;
  }
  if (run_->running() && run_->control()) run_->control()->stop();
  engine_->cancelEvaluation();
  kWindowGeometry.set(saveGeometry());
  kWindowState.set(saveState());
  kWarmup.set(warmup_->value());
  kReps.set(reps_->value());
  kTimeoutSeconds.set(timeout_->value());
  QMainWindow::closeEvent(event);
}

bool MainWindow::confirmUnsaved(const QString& what) {
  if (!editor_->isModified()) return true;
  switch (askUnsaved(what)) {
    case QMessageBox::Save: return saveKernel();
    case QMessageBox::Discard: return true;
    default: return false;
  }
}

void MainWindow::updateTitle() {
  const QString file = kernel_path_.isEmpty() ? tr("untitled.cpp") : QFileInfo(kernel_path_).fileName();
  const QString task = current_task_.empty() ? QString() : QStringLiteral(" (%1)").arg(q(current_task_));
  setWindowTitle(tr("%1[*]%2 — Kope Workbench").arg(file, task));
  setWindowModified(editor_->isModified());
}

void MainWindow::setEditorText(const QString& text, const QString& path) {
  candidate_name_.clear();
  editor_->clearDiagnosticMarks();
  editor_->setText(text);
  editor_->setModified(false);
  kernel_path_ = path;
  updateTitle();
}

void MainWindow::clearResults(const QString& summary) {
  results_source_.reset();
  cases_->clear();
  cases_->setSummary(summary);
  compile_->clear();
  chart_->clear();
  editor_->clearDiagnosticMarks();
  header_->setEmpty(q(current_task_));
}

void MainWindow::editorChanged() {
  if (!results_source_ || header_->evaluationId() == 0) return;
  if (editor_->text().toStdString() != *results_source_)
    header_->setStale(tr("the editor has changed since this evaluation"));
  else if (header_->isStale())
    header_->setCurrent(header_->task(), kernelName(), q(sha256_hex(*results_source_).substr(0, 12)),
                        header_->evaluationId(), QString());
}

bool MainWindow::selectTask(const QString& name) {
  const int row = task_model_->rowOf(name.toStdString());
  if (row < 0) return false;
  if (name.toStdString() == current_task_) return true;
  task_view_->setCurrentIndex(task_model_->index(row, 0));
  return current_task_ == name.toStdString();
}

const Task* MainWindow::currentTask() const { return current_task_.empty() ? nullptr : suite_.find(current_task_); }

void MainWindow::showTask(const Task& task) {
  // Another task: the results and the kernel of the previous one are not this task's.
  if (engine_->evaluating()) engine_->cancelEvaluation();
  current_task_ = task.name;
  setEditorText(QString(), QString());
  clearResults(tr("No evaluation yet. Write or load a kernel and press Evaluate."));
  candidates_->clear();
  for (const auto& c : embedded_candidates(task.name)) {
    candidates_->addItem(q(c.name));
    candidates_->setItemData(candidates_->count() - 1, plainToolTip(q(c.thought)), Qt::ToolTipRole);
  }
  QString html = QString("<h3>%1</h3><p>%2</p><p><b>%3</b></p><ul>")
                     .arg(q(task.name).toHtmlEscaped(), q(task.summary).toHtmlEscaped(), tr("Cases"));
  for (const Case& c : task.cases) {
    ConcreteCase cc = resolve_case(task, c);
    QStringList parts;
    for (const auto& t : cc.inputs) {
      QStringList dims;
      for (auto d : t.shape) dims << QString::number(d);
      parts << QString("%1 %2[%3]").arg(q(t.name), q(std::string(dtype_name(t.dtype))), dims.join(", "));
    }
    html += QString("<li><code>%1</code>: %2</li>").arg(q(c.name).toHtmlEscaped(), parts.join("; ").toHtmlEscaped());
  }
  html += QString("</ul><p><b>%1</b></p><pre>%2</pre>").arg(tr("Reference"), q(task.reference).toHtmlEscaped());
  task_info_->setHtml(html);
  run_->setCurrentTask(task.name);
  refreshHistory();
  engine_->refreshRuns();
  updateTitle();
}

bool MainWindow::loadKernelFile(const QString& path) {
  if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before opening %1?").arg(path))) return false;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    showError(tr("Cannot read the kernel file %1: %2").arg(path, f.errorString()));
    return false;
  }
  setEditorText(QString::fromUtf8(f.readAll()), path);
  kLastKernelDir.set(QFileInfo(path).absolutePath());
  statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
  return true;
}

bool MainWindow::loadCandidate(const QString& name) {
  const Task* task = currentTask();
  if (!task) return false;
  for (const auto& c : embedded_candidates(task->name))
    if (q(c.name) == name) {
      if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before loading %1?").arg(name))) return false;
      setEditorText(q(c.source), QString());
      candidate_name_ = name;
      candidate_source_ = q(c.source);
      candidates_->setCurrentText(name);
      return true;
    }
  return false;
}

void MainWindow::restoreEvaluation(qint64 evaluationId) {
  if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before restoring evaluation %1?").arg(evaluationId)))
    return;
  engine_->loadEvaluation(evaluationId);
}

void MainWindow::showLoaded(const LoadedEvaluation& e) {
  // The engineer may have typed since asking; ask again rather than drop it.
  if (!confirmUnsaved(tr("The kernel has unsaved changes. Save them before restoring evaluation %1?").arg(e.row.id))) return;
  if (e.row.task != current_task_) {
    switching_ = true;
    const int row = task_model_->rowOf(e.row.task);
    if (row >= 0) task_view_->setCurrentIndex(task_model_->index(row, 0));
    switching_ = false;
    if (const Task* t = suite_.find(e.row.task)) showTask(*t);
  }
  setEditorText(q(e.source), QString());
  if (e.report) {
    showReport(e.row.id, *e.report, q(e.row.kernel_origin), e.source);
  } else {
    cases_->clear();
    compile_->clear();
    results_source_ = e.source;
    header_->setCurrent(q(e.row.task), q(e.row.kernel_origin), q(e.row.kernel_sha256.substr(0, 12)), e.row.id,
                        q(e.row.status));
    cases_->setSummary(tr("Evaluation %1 has no report: %2").arg(e.row.id).arg(q(e.row.report)));
  }
  statusBar()->showMessage(tr("Restored evaluation %1 (kernel version %2)").arg(e.row.id).arg(e.row.kernel_id), 5000);
  emit evaluationRestored(e.row.id);
}

void MainWindow::openKernel() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open kernel"), kLastKernelDir.get(),
                                                    tr("C++ sources (*.cpp *.cc *.cxx *.c);;All files (*)"));
  if (!path.isEmpty()) loadKernelFile(path);
}

bool MainWindow::saveKernel() {
  QString path = kernel_path_;
  if (path.isEmpty()) {
    path = askSavePath();
    if (path.isEmpty()) return false;
  }
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(editor_->text().toUtf8()) < 0 || !f.commit()) {
    showError(tr("Cannot write the kernel file %1: %2").arg(path, f.errorString()));
    return false;
  }
  kernel_path_ = path;
  editor_->setModified(false);
  kLastKernelDir.set(QFileInfo(path).absolutePath());
  statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  updateTitle();
  return true;
}

QString MainWindow::kernelName() const {
  if (!kernel_path_.isEmpty()) return kernel_path_;
  const bool unedited = !candidate_name_.isEmpty() && editor_->text() == candidate_source_;
  return unedited ? candidate_name_ : QStringLiteral("untitled.cpp");
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
  evaluating_kernel_ = kernelName();
  evaluating_source_ = source.toStdString();
  results_source_.reset();
  cases_->clear();
  chart_->clear();
  cases_->setSummary(tr("Evaluating %1 on %2...").arg(evaluating_kernel_, q(task->name)));
  compile_->showCompiling(evaluating_kernel_);
  header_->setRunning(q(task->name), evaluating_kernel_, phaseText("compiling"));
  cancel_->setEnabled(true);
  engine_->evaluate(*task, evaluating_source_, evaluating_kernel_.toStdString(), evalOptions());
}

void MainWindow::cancelEvaluation() {
  cancel_->setEnabled(false);
  engine_->cancelEvaluation();
}

void MainWindow::showProgress(const ProgressEvent& e) {
  switch (e.phase) {
    case EvalProgress::Phase::Compiling:
      header_->setRunning(q(current_task_), evaluating_kernel_, phaseText("compiling"));
      break;
    case EvalProgress::Phase::Testing:
    case EvalProgress::Phase::Timing:
      header_->setRunning(q(current_task_), evaluating_kernel_,
                          tr("%1 case %2 of %3 (%4)")
                              .arg(phaseText(e.phase == EvalProgress::Phase::Testing ? "testing" : "timing"))
                              .arg(e.case_index + 1)
                              .arg(e.case_count)
                              .arg(q(e.case_name)));
      break;
    case EvalProgress::Phase::CaseDone:
      if (e.result) cases_->appendCase(*e.result);
      break;
    default:
      break;
  }
}

void MainWindow::showReport(qint64 evaluationId, const EvalReport& rep, const QString& kernel,
                            const std::string& source) {
  cancel_->setEnabled(false);
  results_source_ = source;
  header_->setCurrent(q(rep.task), kernel, q(rep.kernel_sha256.substr(0, 12)), evaluationId, q(rep.status()));
  cases_->setReport(rep);
  compile_->showResult(rep.compile, rep.compiled, q(rep.compile.error), q(source), kernel);
  editor_->showDiagnostics(rep.compile.diagnostics, kernel.toStdString());
  chart_->showReport(rep);
  QString text;
  if (!rep.compiled) {
    text = tr("Did not compile: %1").arg(q(rep.compile.error));
    tabs_->setCurrentWidget(compile_);
    for (const auto& d : rep.compile.diagnostics)
      if (d.file == kernel.toStdString() && (d.severity == "error" || d.severity == "fatal error")) {
        editor_->goToDiagnostic(d.line, d.column);
        break;
      }
  } else {
    text = tr("Result: %1").arg(statusText(rep.status()));
    if (auto s = rep.speedup()) text += tr(", speedup %1 (geometric mean over %2 cases)").arg(q(format::speedup(s))).arg(rep.cases.size());
    text += tr(", score %1").arg(rep.score(), 0, 'f', 1);
    for (const auto& w : rep.warnings) text += "\n" + tr("Warning: %1").arg(q(w));
    if (tabs_->currentWidget() == compile_ || tabs_->currentWidget() == task_info_) tabs_->setCurrentWidget(cases_);
  }
  cases_->setSummary(text);
  refreshHistory();
  emit reportShown(evaluationId);
}

void MainWindow::refreshHistory() {
  engine_->refreshHistory(current_task_.empty() ? std::nullopt : std::optional<std::string>(current_task_));
}

void MainWindow::showError(const QString& message) {
  if (header_->isRunning()) header_->setEmpty(q(current_task_));
  cases_->setSummary(tr("Error: %1").arg(message));
  statusBar()->showMessage(message, 10000);
  emit errorShown(message);
}

void MainWindow::setBusy(bool busy) {
  busy_label_->setText(busy ? tr("Working...") : tr("Idle"));
  if (!busy) cancel_->setEnabled(false);
}

}  // namespace kope::ui
