// The workbench window: tasks, the kernel editor, the results header and panes (cases, compile, profile,
// history, compare, task), and the run controller dock. Results always name their task, kernel version and
// evaluation; unsaved edits are never dropped without asking.
#pragma once

#include <QMainWindow>
#include <QMessageBox>

#include <filesystem>
#include <functional>
#include <optional>

#include "kope/eval/evaluator.h"
#include "kope/loop/loop.h"
#include "engine.h"
#include "kope/model/suite.h"

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QListView;
class QSpinBox;
class QTabWidget;
class QTextBrowser;
class QToolBar;

namespace kope::graph {
class GraphWidget;
}

namespace kope::ui {

class AttemptActions;
class AttemptPane;
class CasesPane;
class ComparePane;
class StudyPane;
class CompilePane;
class DoctorDialog;
class Engine;
class LlmSettingsDialog;
class HistoryPane;
class KernelEditor;
class ProfilePane;
class ResultsHeader;
class RunController;
class SpeedupChart;
class TaskModel;
struct LoadedEvaluation;
struct ProgressEvent;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow(Suite suite, std::filesystem::path workspace, QWidget* parent = nullptr);
  // The narrowest the run controller and the graph dock are made when the window shrinks (what they need at
  // 1024x700); they never grow past half the window.
  static constexpr int kRightDockMin = 420;
  ~MainWindow() override;

  // Switching asks first when the editor holds unsaved edits; false when there is no such task or the
  // engineer cancelled.
  bool selectTask(const QString& name);
  const Task* currentTask() const;
  // A kernel file into the editor; a missing, unreadable or binary file is refused with a dialog (warn).
  bool loadKernelFile(const QString& path);
  // Text already read from `path` (the command line's --kernel) into the editor.
  bool loadKernelText(const QString& text, const QString& path);
  bool loadCandidate(const QString& name);  // a shipped kernel, e.g. "gelu/02_erfc_vectorised.cpp"
  void restoreEvaluation(qint64 evaluationId);
  void setEvalOptions(const EvalOptions& options);
  EvalOptions evalOptions() const;

  // Asked before unsaved edits would be lost; the default is a Save/Discard/Cancel message box. Tests replace it.
  std::function<QMessageBox::StandardButton(const QString& question)> askUnsaved;
  // Told what went wrong with a file the engineer chose (a study or kernel that cannot be read, a kernel that
  // cannot be written); the default is a warning message box. Tests replace it.
  std::function<void(const QString& title, const QString& message)> warn;
  // Asked for a file name to save to when the kernel has none (or Save As); the default is a file dialog opened
  // at proposedSavePath(). Tests replace it.
  std::function<QString()> askSavePath;
  // Where Save As proposes to write: the kernel's file, else the shipped kernel's own name in the last folder a
  // kernel was opened from or saved to (the home folder at first).
  QString proposedSavePath() const;

  KernelEditor* editor() const { return editor_; }
  ResultsHeader* resultsHeader() const { return header_; }
  CasesPane* casesPane() const { return cases_; }
  CompilePane* compilePane() const { return compile_; }
  ProfilePane* profilePane() const { return profile_; }
  HistoryPane* historyPane() const { return history_; }
  ComparePane* comparePane() const { return compare_; }
  StudyPane* studyPane() const { return study_; }
  // File > Open study: a `kope study` folder (or its study.json) in the Study tab; a bad one gets a dialog
  // naming the file and the field, and false.
  bool openStudy(const QString& path);
  RunController* runController() const { return run_; }
  SpeedupChart* chart() const { return chart_; }
  TaskModel* taskModel() const { return task_model_; }
  QListView* taskView() const { return task_view_; }
  QComboBox* candidateBox() const { return candidates_; }
  QTabWidget* tabs() const { return tabs_; }
  QDockWidget* runDock() const { return run_dock_; }
  QDockWidget* graphDock() const { return graph_dock_; }
  kope::graph::GraphWidget* graph() const { return graph_; }
  // From any attempt (the run controller's, a Case in the graph, a History row) to everything about it.
  AttemptActions* attemptActions() const { return attempt_actions_; }
  AttemptPane* attemptPane() const { return attempt_pane_; }
  QAction* evaluateAction() const { return evaluate_; }
  QAction* cancelAction() const { return cancel_; }
  QAction* quitAction() const { return quit_; }
  QAction* machineCheckAction() const { return machine_check_; }
  QAction* compileAction() const { return compile_action_; }
  QAction* saveAsAction() const { return save_as_; }
  QAction* llmSettingsAction() const { return llm_settings_; }
  // Settings > LLM profiles: made on first use, null before.
  LlmSettingsDialog* llmSettingsDialog() const { return llm_settings_dialog_; }
  void showLlmSettings();
  // Help > Machine check: the `kope doctor` checks; made on first use, null before.
  DoctorDialog* doctorDialog() const { return doctor_; }
  void showMachineCheck();
  Engine* engine() const { return engine_; }
  QString kernelPath() const { return kernel_path_; }
  // The kernel's name as the title and the recorded evaluations give it: its file, the shipped or proposed
  // kernel's name (with " (edited)" once changed), or untitled.cpp.
  QString kernelName() const;

 public slots:
  // Evaluates the editor's kernel; one that does not compile is shown but recorded nowhere (no evaluation, no
  // Case): a person's typing is not an attempt.
  void evaluate();
  // The build alone, recorded nowhere: diagnostics in the editor and the compile pane.
  void compileKernel();
  void cancelEvaluation();
  void openKernel();
  bool saveKernel();
  bool saveKernelAs();

 signals:
  void reportShown(qint64 evaluationId);  // 0: a build alone, recorded nowhere (showCompiled)
  void evaluationRestored(qint64 evaluationId);
  void historyShown(int rows);
  void comparisonShown();
  void errorShown(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void changeEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void buildUi();
  void buildTaskDock();
  void buildCentre();
  void buildRunDocks();
  void buildActions();
  void buildBars();
  // The attempts table, the graph and History open attempts through the one AttemptActions.
  void connectAttempts();
  void retranslate();
  // The options toolbar goes onto a row of its own when the window is too narrow for both toolbars on one.
  void fitToolBars();
  // The right docks keep their share of the window's width when it is resized (see the definition).
  void scaleRightDocks(int oldWidth);
  // Every named splitter's handles, as a person left them, saved at close and put back at the next start.
  void saveSplitters() const;
  void restoreSplitters();
  void showTask(const Task& task);
  void showReport(qint64 evaluationId, const EvalReport& report, const QString& kernel, const std::string& source);
  // A build recorded nowhere (Compile, or Evaluate of a kernel that does not compile).
  void showCompiled(const EvalReport& report, const QString& kernel, const std::string& source);
  void startEvaluation(EvalRecord record);
  void showProgress(const ProgressEvent& e);
  void showLoaded(const LoadedEvaluation& e);
  void showError(const QString& message);
  void setBusy(bool busy);
  void refreshHistory();
  void updateTitle();
  void editorChanged();
  void setEditorText(const QString& text, const QString& path);
  // Nothing on show describes the editor's kernel: every results pane empties, the header says so.
  void clearResults(const QString& summary);
  // True when there are no unsaved edits, or the engineer saved or discarded them.
  bool confirmUnsaved(const QString& what);
  bool writeKernel(const QString& path);

  Suite suite_;
  Engine* engine_ = nullptr;
  EvalOptions base_options_;
  QString kernel_path_;
  QString candidate_name_;  // a shipped or proposed kernel in the editor, when it has no file
  QString candidate_source_;  // its text: once edited, the kernel is recorded as "<name> (edited)"
  std::string current_task_;
  // What the shown results describe: the source they were computed from.
  std::optional<std::string> results_source_;
  QString evaluating_kernel_;
  std::string evaluating_source_;
  bool switching_ = false;

  TaskModel* task_model_ = nullptr;
  QListView* task_view_ = nullptr;
  QComboBox* candidates_ = nullptr;
  KernelEditor* editor_ = nullptr;
  ResultsHeader* header_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  CasesPane* cases_ = nullptr;
  CompilePane* compile_ = nullptr;
  ProfilePane* profile_ = nullptr;
  SpeedupChart* chart_ = nullptr;
  HistoryPane* history_ = nullptr;
  ComparePane* compare_ = nullptr;
  StudyPane* study_ = nullptr;
  QAction* open_study_ = nullptr;
  RunController* run_ = nullptr;
  QDockWidget* task_dock_ = nullptr;
  QToolBar* main_bar_ = nullptr;
  QToolBar* options_bar_ = nullptr;
  QDockWidget* run_dock_ = nullptr;
  QDockWidget* graph_dock_ = nullptr;  // the Experience Graph browser (ui/graph)
  kope::graph::GraphWidget* graph_ = nullptr;
  AttemptActions* attempt_actions_ = nullptr;
  AttemptPane* attempt_pane_ = nullptr;
  QTextBrowser* task_info_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* reps_ = nullptr;
  QSpinBox* timeout_ = nullptr;
  QLabel* busy_label_ = nullptr;
  QLabel* workspace_label_ = nullptr;
  QAction* open_ = nullptr;
  QAction* save_ = nullptr;
  QAction* evaluate_ = nullptr;
  QAction* cancel_ = nullptr;
  QAction* load_candidate_ = nullptr;
  QAction* quit_ = nullptr;
  QAction* machine_check_ = nullptr;
  QAction* compile_action_ = nullptr;
  QAction* save_as_ = nullptr;
  QAction* llm_settings_ = nullptr;
  DoctorDialog* doctor_ = nullptr;
  LlmSettingsDialog* llm_settings_dialog_ = nullptr;
  QLabel* warmup_label_ = nullptr;
  QLabel* reps_label_ = nullptr;
  QLabel* timeout_label_ = nullptr;
  QLabel* candidates_label_ = nullptr;
};

}  // namespace kope::ui
