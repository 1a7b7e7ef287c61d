// The run controller: choose tasks, a policy (offline or an LLM profile), the memory arm, budgets, the tasks in
// flight at once and the device pool; start a run and watch each task's phase live (RunMonitor) and the model's
// reply as it streams (LiveReplyPane); pause after the attempt, resume, stop now; steer with a hint, hold
// each candidate for approval (editable in the editor), fork from a recorded version, pin the incumbent. Every
// act lands in the run's steering log.
#pragma once

#include <QWidget>

#include <functional>
#include <memory>

#include "kope/loop/run_control.h"
#include "kope/model/suite.h"
#include "models/models.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListView;
class QProgressBar;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QPushButton;
class QSpinBox;
class QTableView;

namespace kope::ui {

class Engine;
class LiveReplyPane;
class RunMonitor;
struct ProgressEvent;
struct RunSettings;

class RunController : public QWidget {
  Q_OBJECT
 public:
  RunController(Engine* engine, const Suite* suite, QWidget* parent = nullptr);

  TaskModel* tasks() const { return tasks_; }
  AttemptModel* attempts() const { return attempts_; }
  SteeringModel* steering() const { return steering_; }
  QTableView* attemptView() const { return attempt_view_; }
  QLabel* phaseLabel() const { return phase_; }
  QSpinBox* maxAttempts() const { return max_attempts_; }
  // Budgets for the run (0: none): attempts without improvement, model tokens in thousands, wall minutes.
  QSpinBox* patience() const { return patience_; }
  QSpinBox* tokenBudget() const { return token_budget_; }
  QSpinBox* wallMinutes() const { return wall_minutes_; }
  QComboBox* policyBox() const { return policy_; }
  QComboBox* memoryBox() const { return memory_; }
  // Tasks advanced at once (`kope run --jobs`) and the device pool (`--device`); a malformed pool is named in
  // devicesError() and the run does not start.
  QSpinBox* jobsBox() const { return jobs_; }
  QLineEdit* devicesEdit() const { return devices_; }
  QLabel* devicesError() const { return devices_error_; }
  RunMonitor* monitor() const { return monitor_; }
  // The model's reply as it comes, for the task followed; shown while the policy is a model's.
  LiveReplyPane* liveReply() const { return live_; }
  QPushButton* startButton() const { return start_; }
  QPushButton* pauseButton() const { return pause_; }
  QPushButton* stopButton() const { return stop_; }
  QPushButton* approveButton() const { return approve_; }
  QPushButton* rejectButton() const { return reject_; }
  QCheckBox* holdBox() const { return hold_; }
  QCheckBox* pinBox() const { return pin_; }
  QLineEdit* hintEdit() const { return hint_; }
  QPushButton* hintButton() const { return send_hint_; }
  std::shared_ptr<loop::RunControl> control() const { return control_; }
  bool running() const { return running_; }
  qint64 lastRunId() const { return last_run_; }

  // Evaluation settings for the run's attempts come from the window.
  std::function<EvalOptions()> evalOptions;
  // The held candidate's source as edited in the editor.
  std::function<QString()> editedSource;

  // Starts a run with the chosen settings; an LLM profile's key is read from the system keychain first (else
  // the profile's variable is read, as by the command line).
  void start();
  // The policy list again from the settings file (the LLM profiles dialog saved it); what is typed stays.
  void reloadProfiles();
  void forkFrom(qint64 evaluationId);
  void checkTask(const std::string& task);
  // The window's task becomes the only one chosen, unless a run is going.
  void setCurrentTask(const std::string& task);
  void retranslate();

 signals:
  void candidateHeld(const QString& task, const kope::loop::Proposal& proposal);
  void candidateDecided();
  void runStarted();
  void runFinished(qint64 runId);
  void attemptFinished(const QString& task, const kope::loop::Attempt& attempt);

 private:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void fitPanes();
  void buildForm();
  void buildControls();
  void rememberChoices();
  // The run begins once the key (if any) is known.
  void begin(const RunSettings& s);
  void layOut();
  // Whether the Devices field holds a well-formed pool; if not, the reason is shown beside it.
  bool checkDevices();
  void decideHeld(std::optional<loop::Proposal> decision);
  void connectSteering();
  void connectEngine();
  void setRunning(bool running);
  void showPhase(const QString& task, const QString& phase);
  void showProgress(const QString& task, const ProgressEvent& e);
  void updateButtons();
  // The live reply pane is shown for a model's policy, or while it holds a reply.
  void updateLiveShown();

  Engine* engine_ = nullptr;
  const Suite* suite_ = nullptr;
  std::shared_ptr<loop::RunControl> control_;
  quint64 job_ = 0;
  qint64 last_run_ = 0;
  bool running_ = false;
  bool starting_ = false;  // reading an LLM profile's key before the run begins
  std::optional<loop::Proposal> held_;
  std::string held_task_;
  std::optional<qint64> pending_fork_;

  TaskModel* tasks_ = nullptr;
  AttemptModel* attempts_ = nullptr;
  SteeringModel* steering_ = nullptr;
  QListView* task_view_ = nullptr;
  QComboBox* policy_ = nullptr;
  QComboBox* memory_ = nullptr;
  QSpinBox* max_attempts_ = nullptr;
  QSpinBox* patience_ = nullptr;
  QSpinBox* token_budget_ = nullptr;
  QSpinBox* wall_minutes_ = nullptr;
  QSpinBox* jobs_ = nullptr;
  QLineEdit* devices_ = nullptr;
  QLabel* devices_error_ = nullptr;
  RunMonitor* monitor_ = nullptr;
  LiveReplyPane* live_ = nullptr;
  QPushButton* start_ = nullptr;
  QPushButton* pause_ = nullptr;
  QPushButton* stop_ = nullptr;
  QLabel* phase_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLineEdit* hint_ = nullptr;
  QPushButton* send_hint_ = nullptr;
  QCheckBox* hold_ = nullptr;
  QPushButton* approve_ = nullptr;
  QPushButton* reject_ = nullptr;
  QCheckBox* pin_ = nullptr;
  QHBoxLayout* buttons_ = nullptr;
  QSplitter* split_ = nullptr;
  QTabWidget* records_ = nullptr;  // the attempts and the steering log
  static constexpr int kRecordRows = 6;  // attempts shown before the tasks in flight get more room
  static constexpr int kChoicesStrip = 48;  // the run's choices folded: a strip that scrolls
  QWidget* choices_ = nullptr;
  QWidget* steer_ = nullptr;
  bool user_sized_ = false;  // a person dragged a handle: the panes stay as they put them
  QHBoxLayout* hint_row_ = nullptr;
  QHBoxLayout* approval_ = nullptr;
  QTableView* attempt_view_ = nullptr;
  QTableView* steering_view_ = nullptr;
  QFormLayout* form_ = nullptr;
  QLabel* tasks_label_ = nullptr;
  QLabel* policy_label_ = nullptr;
  QLabel* memory_label_ = nullptr;
  QLabel* attempts_label_ = nullptr;
  QLabel* patience_label_ = nullptr;
  QLabel* tokens_label_ = nullptr;
  QLabel* wall_label_ = nullptr;
  QLabel* jobs_label_ = nullptr;
  QLabel* devices_label_ = nullptr;
  QLabel* fork_label_ = nullptr;
};

}  // namespace kope::ui
