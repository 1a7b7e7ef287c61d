// The workbench window: tasks, the kernel editor, evaluation results, the loop and the workspace history.
#pragma once

#include <QMainWindow>
#include <QPointer>

#include <filesystem>
#include <optional>

#include "kope/evaluator.h"
#include "kope/loop.h"
#include "kope/suite.h"

class QAction;
class QComboBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace kope::ui {

class Engine;
class KernelEditor;
class SpeedupChart;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  MainWindow(Suite suite, std::filesystem::path workspace, QWidget* parent = nullptr);
  ~MainWindow() override;

  bool selectTask(const QString& name);
  const Task* currentTask() const;
  bool loadKernelFile(const QString& path);
  bool loadCandidate(const QString& name);  // a shipped kernel, e.g. "gelu/02_erfc_vectorised.cpp"
  void setEvalOptions(const EvalOptions& options);
  EvalOptions evalOptions() const;

  KernelEditor* editor() const { return editor_; }
  QTableWidget* caseTable() const { return cases_; }
  QTableWidget* historyTable() const { return history_; }
  QTableWidget* loopTable() const { return loop_; }
  QListWidget* diagnosticsList() const { return diagnostics_; }
  QListWidget* taskList() const { return tasks_; }
  QComboBox* candidateBox() const { return candidates_; }
  SpeedupChart* chart() const { return chart_; }
  QTabWidget* tabs() const { return tabs_; }
  QLabel* summaryLabel() const { return summary_; }
  QAction* evaluateAction() const { return evaluate_; }
  QAction* runLoopAction() const { return run_loop_; }
  Engine* engine() const { return engine_; }

 public slots:
  void evaluate();
  void runLoop();
  void openKernel();
  bool saveKernel();

 signals:
  void reportShown(qint64 evaluationId);
  void loopDone();
  void historyShown(int rows);
  void errorShown(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void buildUi();
  void retranslate();
  void showTask(const Task& task);
  void showReport(qint64 evaluationId, const EvalReport& report);
  void showHistory(const QVector<EvaluationRow>& rows);
  void addLoopAttempt(const QString& task, const Attempt& attempt);
  void showError(const QString& message);
  void setBusy(bool busy);
  void refreshHistory();
  QString kernelName() const;

  Suite suite_;
  Engine* engine_ = nullptr;
  EvalOptions base_options_;
  QString kernel_path_;

  QListWidget* tasks_ = nullptr;
  QComboBox* candidates_ = nullptr;
  KernelEditor* editor_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QTableWidget* cases_ = nullptr;
  QLabel* summary_ = nullptr;
  QListWidget* diagnostics_ = nullptr;
  SpeedupChart* chart_ = nullptr;
  QTableWidget* loop_ = nullptr;
  QTableWidget* history_ = nullptr;
  QTextBrowser* task_info_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* reps_ = nullptr;
  QSpinBox* timeout_ = nullptr;
  QLabel* busy_label_ = nullptr;
  QLabel* workspace_label_ = nullptr;
  QAction* open_ = nullptr;
  QAction* save_ = nullptr;
  QAction* evaluate_ = nullptr;
  QAction* run_loop_ = nullptr;
  QAction* load_candidate_ = nullptr;
  QAction* quit_ = nullptr;
  QLabel* warmup_label_ = nullptr;
  QLabel* reps_label_ = nullptr;
  QLabel* timeout_label_ = nullptr;
  QLabel* candidates_label_ = nullptr;
};

}  // namespace kope::ui
