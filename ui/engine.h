// The engine thread: one thread owns the workspace and the evaluator; jobs return values to the UI thread.
// Every long job can be cancelled: an evaluation through its cancel token, a loop through its RunControl.
#pragma once

#include <QObject>
#include <QString>
#include <QThread>
#include <QVector>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "kope/eval/compare.h"
#include "kope/llm/client.h"
#include "kope/eval/evaluator.h"
#include "kope/loop/loop.h"
#include "kope/loop/run_control.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "models/live_models.h"

namespace kope::ui {

class EngineWorker;

// An evaluation's progress as it reaches the UI thread (EvalProgress with the finished case copied).
struct ProgressEvent {
  EvalProgress::Phase phase = EvalProgress::Phase::Compiling;
  int case_index = 0, case_count = 0;
  std::string case_name;
  std::optional<CaseResult> result;
};

// A recorded evaluation loaded back: its row, its report (when it has one) and its kernel's source.
struct LoadedEvaluation {
  workspace::EvaluationRow row;
  std::optional<EvalReport> report;
  std::string source;
};

// A recorded evaluation with its report and source, read on the caller's thread. Throws kope::Error when the
// workspace has no such evaluation.
LoadedEvaluation load_evaluation(const workspace::Workspace& ws, qint64 evaluationId);

// Two recorded evaluations compared (kope compare), with their sources. Throws kope::Error when either has no
// stored report.
struct ComparedEvaluations {
  eval::Comparison comparison;
  QString source_a, source_b;
};
ComparedEvaluations compare_evaluations(const workspace::Workspace& ws, qint64 a, qint64 b);

struct RunSettings {
  std::vector<std::string> tasks;
  std::string policy = "offline";  // or an LLM profile name, once the llm module is in
  std::string memory = "off";      // off, dump, active: the memory arm, once the memory module is in
  // The LLM profile's key as the window read it from the system keychain; none: the profile's variable.
  std::optional<llm::ApiKey> api_key;
  // The device pool, as `kope run --device` takes it (kope/device/pool.h): "cpu", "cpu:0-3,cpu:4-7", "cuda:0,1".
  std::string devices = "cpu";
  loop::LoopOptions loop;  // loop.jobs: tasks advanced at once, each with its own policy
};

// What an evaluation from the window records. The memory's rule (core/memory): every recorded evaluation becomes
// a Case. A person's typing that does not build is no attempt, so the editor's Evaluate records only kernels that
// compile, and its Compile records nothing.
enum class EvalRecord {
  Always,               // as `kope eval`: recorded whatever the outcome
  IfItCompiles,         // the build first, unrecorded; a failed build arrives as compileFinished, recorded nowhere
  Never,                // the build alone (compileFinished), recorded nowhere
};

class Engine : public QObject {
  Q_OBJECT
 public:
  explicit Engine(std::filesystem::path workspace, QObject* parent = nullptr);
  ~Engine() override;

  // A new evaluation supersedes any earlier one still pending: the earlier result is recorded in the
  // workspace but not delivered. Returns the job id.
  quint64 evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                   const EvalOptions& options, EvalRecord record = EvalRecord::Always);
  // Cancels the pending evaluation: its token is set and its result is not delivered (evaluationCancelled).
  void cancelEvaluation();
  // The loop over the chosen tasks, steered through `control`; attempts arrive one by one (from several tasks at
  // once when settings.loop.jobs > 1). Each task's recorded incumbent arrives first (loopIncumbent); a task's
  // start and end arrive as the phases "starting" and "finished".
  quint64 runLoop(const Suite& suite, const RunSettings& settings, std::shared_ptr<loop::RunControl> control);
  void refreshHistory(const std::optional<std::string>& task, int limit = 200);
  void refreshRuns(int limit = 50);
  // Any recorded kernel version, by its workspace id.
  void loadKernel(qint64 kernelId);
  // A recorded evaluation with its report and source.
  void loadEvaluation(qint64 evaluationId);
  // Two recorded evaluations compared (kope compare); the incumbent of a task by its evaluation id.
  void compare(qint64 a, qint64 b);
  // The task's incumbent (A) against evaluation `b` (B); jobFailed when the baseline is still the incumbent.
  void compareWithIncumbent(const std::string& task, qint64 b);
  void loadSteering(qint64 runId);

  bool busy() const { return pending_ > 0; }
  bool evaluating() const { return latest_eval_ != 0 && eval_token_ != nullptr; }
  const std::filesystem::path& workspace() const { return workspace_; }

 signals:
  void busyChanged(bool busy);
  void evaluationProgress(quint64 job, const kope::ui::ProgressEvent& event);
  void evaluationFinished(quint64 job, qint64 evaluationId, const kope::EvalReport& report);
  void evaluationCancelled(quint64 job);
  // A build that was not recorded (EvalRecord::IfItCompiles that did not compile, or EvalRecord::Never).
  void compileFinished(quint64 job, const kope::EvalReport& report);
  void loopPhase(quint64 job, const QString& task, const QString& phase);
  void loopIncumbent(quint64 job, const QString& task, double speedup);
  void loopHeld(quint64 job, const QString& task, const kope::loop::Proposal& proposal);
  void loopProgress(quint64 job, const QString& task, const kope::ui::ProgressEvent& event);
  void loopAttempt(quint64 job, const QString& task, const kope::loop::Attempt& attempt);
  void loopFinished(quint64 job, qint64 runId, const QVector<kope::loop::TaskOutcome>& outcomes);
  // An LLM attempt of the run as it happens: its prompt once assembled, the reply as it streams, its end.
  void llmLive(quint64 job, const kope::ui::LiveEvent& event);
  void steeringAct(const kope::loop::SteeringAct& act);
  void jobFailed(quint64 job, const QString& error);
  void historyReady(const QVector<kope::workspace::EvaluationRow>& rows);
  void runsReady(const QVector<kope::workspace::RunRow>& rows);
  void kernelLoaded(qint64 kernelId, const QString& source);
  void evaluationLoaded(const kope::ui::LoadedEvaluation& evaluation);
  void comparisonReady(const kope::eval::Comparison& comparison, const QString& sourceA, const QString& sourceB);
  void steeringReady(qint64 runId, const QVector<kope::loop::SteeringAct>& acts);

 private:
  void began();
  void ended();
  // Queues `work` on the engine thread; an exception it throws arrives as jobFailed(job).
  void onWorker(quint64 job, bool counted, std::function<void(EngineWorker&)> work);

  std::filesystem::path workspace_;
  QThread thread_;
  EngineWorker* worker_ = nullptr;
  quint64 next_job_ = 1;
  quint64 latest_eval_ = 0;
  std::shared_ptr<CancelToken> eval_token_;
  int pending_ = 0;
};

}  // namespace kope::ui

Q_DECLARE_METATYPE(kope::ui::ProgressEvent)
Q_DECLARE_METATYPE(kope::ui::LoadedEvaluation)
Q_DECLARE_METATYPE(kope::ui::LiveEvent)
