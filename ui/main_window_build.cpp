// MainWindow's widgets, docks, actions, menus and bars, built once by the constructor, and their texts, set
// again by retranslate() when the language changes. Apart from main_window.cpp (what the window does), which
// stays under the size the house style asks of a file.
#include "main_window.h"

#include <QAction>
#include <QResizeEvent>
#include <QScrollBar>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "attempt_actions.h"
#include "charts/speedup_chart.h"
#include "doctor/doctor_dialog.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "graph/graph_widget.h"
#include "models/models.h"
#include "models/status.h"
#include "settings.h"
#include "views/attempt_pane.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/run_controller.h"
#include "views/study_pane.h"
#include "models/qtext.h"

using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

namespace kope::ui {

void MainWindow::buildUi() {
  resize(1440, 900);
  setObjectName("kope-workbench");

  buildTaskDock();
  buildCentre();
  buildRunDocks();
  buildActions();
  buildBars();
  connectAttempts();
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
  // As wide as the longest task name, so no name is cut at any window size.
  task_view_->setMinimumWidth(static_cast<QAbstractItemView*>(task_view_)->sizeHintForColumn(0) +
                              2 * task_view_->frameWidth() + task_view_->verticalScrollBar()->sizeHint().width());
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
  study_ = new StudyPane;
  connect(study_, &StudyPane::openRequested, this, [this] { open_study_->trigger(); });
  attempt_actions_ = new AttemptActions(engine_->workspace(), this);
  attempt_pane_ = new AttemptPane(attempt_actions_);

  tabs_ = new QTabWidget;
  tabs_->addTab(cases_, QString());
  tabs_->addTab(compile_, QString());
  tabs_->addTab(profile_, QString());
  tabs_->addTab(chart_, QString());
  tabs_->addTab(history_, QString());
  tabs_->addTab(compare_, QString());
  tabs_->addTab(attempt_pane_, QString());
  tabs_->addTab(task_info_, QString());
  tabs_->addTab(study_, QString());

  auto* results = new QWidget;
  auto* rl = new QVBoxLayout(results);
  rl->setContentsMargins(0, 0, 0, 0);
  rl->setSpacing(2);
  rl->addWidget(header_);
  rl->addWidget(tabs_, 1);
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName("centre-split");
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
  auto* graph = graph_ = new kope::graph::GraphWidget(this);
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

// Double-click and the context menu on an attempt, a Case node or a History row open the same things through
// the one service: the kernel with its results, the Attempt pane (diff, results, transcript), the Case in the
// graph, the comparison with the incumbent.
void MainWindow::connectAttempts() {
  AttemptActions* acts = attempt_actions_;
  acts->attach(run_->attemptView(), [this](const QModelIndex& i) -> std::optional<AttemptRef> {
    const Attempt& a = run_->attempts()->at(i.row()).attempt;
    return AttemptRef{a.evaluation_id, a.transcript_id, 0};
  });
  acts->attach(history_->view(), [this](const QModelIndex& i) -> std::optional<AttemptRef> {
    return AttemptRef{history_->model()->at(i.row()).id, 0, 0};
  });
  graph_->caseActions = [acts](qint64 caseId) { return acts->actionsFor({0, 0, caseId}); };
  connect(graph_, &kope::graph::GraphWidget::caseActivated, acts, [acts](qint64 caseId) { acts->open({0, 0, caseId}); });
  connect(acts, &AttemptActions::kernelRequested, this, &MainWindow::showLoaded);
  connect(acts, &AttemptActions::detailsRequested, this, [this](const AttemptDetails& d, AttemptActions::Act part) {
    attempt_pane_->showAttempt(d, part);
    tabs_->setCurrentWidget(attempt_pane_);
  });
  connect(acts, &AttemptActions::caseRequested, this, [this](qint64 caseId, bool raise) {
    graph_->refresh();  // a Case the loop just recorded
    graph_->selectCase(caseId, true);
    if (!raise) return;
    graph_dock_->show();
    graph_dock_->raise();
  });
  connect(acts, &AttemptActions::comparisonReady, this, [this](const Comparison& c, const QString& a, const QString& b) {
    compare_->showComparison(c, a, b);
    tabs_->setCurrentWidget(compare_);
    emit comparisonShown();
  });
  connect(acts, &AttemptActions::failed, this, &MainWindow::showError);
}

// The actions and the evaluation options.
void MainWindow::buildActions() {
  open_ = new QAction(this);
  open_->setShortcut(QKeySequence::Open);
  connect(open_, &QAction::triggered, this, &MainWindow::openKernel);
  save_ = new QAction(this);
  save_->setShortcut(QKeySequence::Save);
  connect(save_, &QAction::triggered, this, &MainWindow::saveKernel);
  save_as_ = new QAction(this);
  save_as_->setShortcut(QKeySequence::SaveAs);
  connect(save_as_, &QAction::triggered, this, &MainWindow::saveKernelAs);
  evaluate_ = new QAction(this);
  evaluate_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
  connect(evaluate_, &QAction::triggered, this, &MainWindow::evaluate);
  compile_action_ = new QAction(this);
  compile_action_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  connect(compile_action_, &QAction::triggered, this, &MainWindow::compileKernel);
  llm_settings_ = new QAction(this);
  llm_settings_->setObjectName("llm-settings-action");
  connect(llm_settings_, &QAction::triggered, this, &MainWindow::showLlmSettings);
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
  open_study_ = new QAction(this);
  connect(open_study_, &QAction::triggered, this, [this] {
    // The workspace's studies/ first: where `kope study` writes unless told otherwise.
    const std::filesystem::path studies = engine_->workspace() / "studies";
    std::error_code ec;
    const QString start = q((std::filesystem::is_directory(studies, ec) ? studies : engine_->workspace()).string());
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a study folder"), start);
    if (!dir.isEmpty()) openStudy(dir);
  });

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
  auto* bar = main_bar_ = addToolBar(QString());
  bar->setObjectName("main-toolbar");
  bar->addAction(open_);
  bar->addAction(save_);
  bar->addSeparator();
  bar->addAction(compile_action_);
  bar->addAction(evaluate_);
  bar->addAction(cancel_);
  bar->addSeparator();
  bar->addWidget(candidates_label_);
  bar->addWidget(candidates_);
  bar->addAction(load_candidate_);
  auto* opts = options_bar_ = addToolBar(QString());
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
  file_menu->addAction(save_as_);
  file_menu->addAction(open_study_);
  file_menu->addSeparator();
  file_menu->addAction(quit_);
  auto* kernel_menu = menuBar()->addMenu(QString());
  kernel_menu->setObjectName("kernel-menu");
  kernel_menu->addAction(compile_action_);
  kernel_menu->addAction(evaluate_);
  kernel_menu->addAction(cancel_);
  kernel_menu->addAction(load_candidate_);
  auto* view_menu = menuBar()->addMenu(QString());
  view_menu->setObjectName("view-menu");
  view_menu->addAction(task_dock_->toggleViewAction());
  view_menu->addAction(run_dock_->toggleViewAction());
  auto* settings_menu = menuBar()->addMenu(QString());
  settings_menu->setObjectName("settings-menu");
  settings_menu->addAction(llm_settings_);
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

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  fitToolBars();
  scaleRightDocks(event->oldSize().width());
}

// Qt keeps a dock's width in pixels when the window changes size, so a maximised 2560-wide window would show the
// run controller and the graph at the width they had at 1024. They keep their share of the window instead, never
// narrower than they need at 1024x700 nor wider than half the window.
void MainWindow::scaleRightDocks(int oldWidth) {
  if (oldWidth <= 0 || oldWidth == width()) return;
  QDockWidget* shown = nullptr;
  for (QDockWidget* d : {run_dock_, graph_dock_})
    if (d->isVisible() && !d->isFloating() && dockWidgetArea(d) == Qt::RightDockWidgetArea && !d->visibleRegion().isEmpty())
      shown = d;
  if (!shown) return;
  const int scaled = static_cast<int>(std::lround(double(shown->width()) * width() / oldWidth));
  const int target = std::clamp(scaled, std::min(kRightDockMin, width() / 2), std::max(kRightDockMin, width() / 2));
  if (target != shown->width()) resizeDocks({shown}, {target}, Qt::Horizontal);
}

void MainWindow::fitToolBars() {
  if (!main_bar_ || !options_bar_ || toolBarArea(options_bar_) != Qt::TopToolBarArea ||
      toolBarArea(main_bar_) != Qt::TopToolBarArea)
    return;  // a person moved them: their place is theirs
  const int room = width() - 16;
  const bool fits = main_bar_->sizeHint().width() + options_bar_->sizeHint().width() <= room;
  if (fits == !toolBarBreak(options_bar_)) return;
  if (fits) removeToolBarBreak(options_bar_);
  else insertToolBarBreak(options_bar_);
}

namespace {
QString splitterKey(const QSplitter* s) { return "layout/splitter/" + s->objectName(); }
}  // namespace

void MainWindow::saveSplitters() const {
  QSettings settings;
  for (const QSplitter* s : findChildren<QSplitter*>())
    if (!s->objectName().isEmpty()) settings.setValue(splitterKey(s), s->saveState());
}

// A splitter whose owner lays it out until a person drags a handle (the run controller) hears splitterMoved,
// so the restored handles count as a person's.
void MainWindow::restoreSplitters() {
  QSettings settings;
  for (QSplitter* s : findChildren<QSplitter*>()) {
    if (s->objectName().isEmpty()) continue;
    const QByteArray state = settings.value(splitterKey(s)).toByteArray();
    if (!state.isEmpty() && s->restoreState(state)) emit s->splitterMoved(0, 0);
  }
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
  tabs_->setTabText(tabs_->indexOf(attempt_pane_), tr("Attempt"));
  tabs_->setTabText(tabs_->indexOf(task_info_), tr("Task"));
  tabs_->setTabText(tabs_->indexOf(study_), tr("Study"));
  open_study_->setText(tr("Open s&tudy..."));
  open_study_->setToolTip(tr("The arms of a `kope study` side by side: pass rate, fast_1, speedup, score, tokens and time per level"));
  open_->setText(tr("&Open kernel..."));
  save_->setText(tr("&Save kernel"));
  save_as_->setText(tr("Save kernel &as..."));
  compile_action_->setText(tr("Com&pile"));
  compile_action_->setToolTip(tr("Build the kernel and mark its diagnostics; nothing is recorded (Ctrl+B)"));
  llm_settings_->setText(tr("&LLM profiles..."));
  llm_settings_->setToolTip(tr("The models the agent can use: profiles of the settings file, keys in the system keychain, a connection test"));
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
  if (auto* m = menuBar()->findChild<QMenu*>("settings-menu")) m->setTitle(tr("&Settings"));
  if (auto* m = menuBar()->findChild<QMenu*>("help-menu")) m->setTitle(tr("&Help"));
  task_model_->retranslate();
  header_->retranslate();
  cases_->retranslate();
  compile_->retranslate();
  profile_->retranslate();
  history_->retranslate();
  compare_->retranslate();
  study_->retranslate();
  attempt_pane_->retranslate();
  attempt_actions_->retranslate();
  run_->retranslate();
  setBusy(engine_->busy());
  if (cases_->summary()->text().isEmpty()) cases_->setSummary(tr("No evaluation yet. Write or load a kernel and press Evaluate."));
  updateTitle();
}

}  // namespace kope::ui
