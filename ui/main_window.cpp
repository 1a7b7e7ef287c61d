#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QSaveFile>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>

#include "charts/speedup_chart.h"
#include "doctor/doctor_dialog.h"
#include "editor/kernel_editor.h"
#include "engine.h"
#include "kope/base/format.h"
#include "kope/base/sha256.h"
#include "models/models.h"
#include "models/status.h"
#include "llm/llm_settings_dialog.h"
#include "kope/llm/config.h"
#include "settings.h"
#include "startup.h"
#include "views/cases_pane.h"
#include "views/compare_pane.h"
#include "views/compile_pane.h"
#include "views/history_pane.h"
#include "views/profile_pane.h"
#include "views/results_header.h"
#include "views/study_pane.h"
#include "views/run_controller.h"
#include "models/qtext.h"

using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

namespace kope::ui {

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
  warn = [this](const QString& title, const QString& message) {
    QMessageBox box(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box.setTextFormat(Qt::PlainText);  // a path or a field from a file: never markup
    box.exec();
  };
  askSavePath = [this] {
    return QFileDialog::getSaveFileName(this, tr("Save kernel"), proposedSavePath(), tr("C++ sources (*.cpp)"));
  };
  buildUi();
  retranslate();
  connect(engine_, &Engine::busyChanged, this, &MainWindow::setBusy);
  connect(engine_, &Engine::evaluationProgress, this, [this](quint64, const ProgressEvent& e) { showProgress(e); });
  connect(engine_, &Engine::evaluationFinished, this, [this](quint64, qint64 id, const EvalReport& rep) {
    showReport(id, rep, evaluating_kernel_, evaluating_source_);
  });
  connect(engine_, &Engine::compileFinished, this, [this](quint64, const EvalReport& rep) {
    showCompiled(rep, evaluating_kernel_, evaluating_source_);
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
  // The run controller wide enough for the live reply's prompt table and text.
  resizeDocks({task_dock_, run_dock_}, {170, std::max(480, kRightDockMin + 40)}, Qt::Horizontal);
  restoreGeometry(kWindowGeometry.get());
  restoreState(kWindowState.get());
  restoreSplitters();
  if (!suite_.tasks().empty()) selectTask(q(suite_.tasks().front().name));
  updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::showLlmSettings() {
  if (!llm_settings_dialog_) {
    llm_settings_dialog_ = new LlmSettingsDialog(llm::settings_path(), this);
    connect(llm_settings_dialog_, &LlmSettingsDialog::saved, run_, &RunController::reloadProfiles);
    connect(llm_settings_dialog_, &QDialog::finished, this, [this] {
      llm_settings_dialog_->deleteLater();  // read afresh next time: another program may change the file
      llm_settings_dialog_ = nullptr;
    });
  }
  llm_settings_dialog_->show();
  llm_settings_dialog_->raise();
  llm_settings_dialog_->activateWindow();
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
  saveSplitters();
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
  // A shipped or proposed kernel keeps its name while edited; the title's * says it differs from that kernel.
  const QString file = !kernel_path_.isEmpty()     ? QFileInfo(kernel_path_).fileName()
                       : !candidate_name_.isEmpty() ? QFileInfo(candidate_name_).fileName()
                                                    : tr("untitled.cpp");
  const QString task = current_task_.empty() ? QString() : QStringLiteral(" (%1)").arg(q(current_task_));
  setWindowTitle(tr("%1[*]%2 — Kope Workbench").arg(file, task));
  const bool edited_candidate = kernel_path_.isEmpty() && !candidate_name_.isEmpty() && editor_->text() != candidate_source_;
  setWindowModified(editor_->isModified() || edited_candidate);
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
  const KernelText k = readKernelFile(path);
  if (!k.error.isEmpty()) {
    showError(k.error);
    warn(tr("Open kernel"), k.error);
    return false;
  }
  return loadKernelText(k.text, path);
}

bool MainWindow::loadKernelText(const QString& text, const QString& path) {
  setEditorText(text, path);
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
      updateTitle();  // the shipped kernel's name, not untitled.cpp
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

QString MainWindow::proposedSavePath() const {
  if (!kernel_path_.isEmpty()) return kernel_path_;
  QString dir = kLastKernelDir.get();
  if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QDir::homePath();
  QString name = candidate_name_.isEmpty() ? QString() : QFileInfo(candidate_name_).fileName();
  if (name.isEmpty()) name = current_task_.empty() ? tr("untitled.cpp") : q(current_task_) + "_kernel.cpp";
  if (!name.endsWith(".cpp")) name += ".cpp";
  return QDir(dir).filePath(name);
}

bool MainWindow::saveKernel() {
  if (kernel_path_.isEmpty()) return saveKernelAs();
  return writeKernel(kernel_path_);
}

bool MainWindow::saveKernelAs() {
  const QString path = askSavePath();
  if (path.isEmpty()) return false;
  return writeKernel(path);
}

bool MainWindow::writeKernel(const QString& path) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(editor_->text().toUtf8()) < 0 || !f.commit()) {
    const QString why = tr("Cannot write the kernel file %1: %2").arg(path, f.errorString());
    showError(why);
    warn(tr("Save kernel"), why);
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
  if (candidate_name_.isEmpty()) return QStringLiteral("untitled.cpp");
  // Recorded under its own name only as shipped; an edit is another kernel, which says whose it was.
  return editor_->text() == candidate_source_ ? candidate_name_ : candidate_name_ + QStringLiteral(" (edited)");
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

void MainWindow::evaluate() { startEvaluation(EvalRecord::IfItCompiles); }

void MainWindow::compileKernel() { startEvaluation(EvalRecord::Never); }

void MainWindow::startEvaluation(EvalRecord record) {
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
  engine_->evaluate(*task, evaluating_source_, evaluating_kernel_.toStdString(), evalOptions(), record);
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
    case EvalProgress::Phase::Waiting:
      header_->setRunning(q(current_task_), evaluating_kernel_, phaseText("waiting"));
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
    case EvalProgress::Phase::Goldens:
      header_->setRunning(q(current_task_), evaluating_kernel_,
                          tr("%1: %2 of %3 done (%4)").arg(phaseText("goldens")).arg(e.case_index).arg(e.case_count).arg(q(e.case_name)));
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

void MainWindow::showCompiled(const EvalReport& rep, const QString& kernel, const std::string& source) {
  cancel_->setEnabled(false);
  results_source_ = source;
  header_->setCompiled(q(rep.task), kernel, q(rep.kernel_sha256.substr(0, 12)), rep.compiled);
  cases_->clear();
  chart_->clear();
  compile_->showResult(rep.compile, rep.compiled, q(rep.compile.error), q(source), kernel);
  editor_->showDiagnostics(rep.compile.diagnostics, kernel.toStdString());
  if (rep.compiled) {
    cases_->setSummary(tr("It compiles (%1 s). Nothing was recorded: Evaluate tests and times it.").arg(rep.compile.seconds, 0, 'f', 1));
    tabs_->setCurrentWidget(compile_);
  } else {
    cases_->setSummary(tr("Did not compile: %1\nNot recorded: a kernel typed here that does not build is no attempt, "
                          "so it makes no evaluation and no Case in the memory.").arg(q(rep.compile.error)));
    tabs_->setCurrentWidget(compile_);
    for (const auto& d : rep.compile.diagnostics)
      if (d.file == kernel.toStdString() && (d.severity == "error" || d.severity == "fatal error")) {
        editor_->goToDiagnostic(d.line, d.column);
        break;
      }
  }
  emit reportShown(0);
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

bool MainWindow::openStudy(const QString& path) {
  try {
    study_->open(path.toStdString());
  } catch (const Error& e) {
    warn(tr("Cannot open the study"), QString::fromStdString(e.what()));
    return false;
  }
  tabs_->setCurrentWidget(study_);
  return true;
}

void MainWindow::setBusy(bool busy) {
  busy_label_->setText(busy ? tr("Working...") : tr("Idle"));
  if (!busy) cancel_->setEnabled(false);
}

}  // namespace kope::ui
