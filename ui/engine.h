// The engine thread: one thread owns the workspace and the evaluator; jobs return values to the UI thread.
#pragma once

#include <QObject>
#include <QString>
#include <QThread>
#include <QVector>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "kope/evaluator.h"
#include "kope/loop.h"
#include "kope/suite.h"
#include "kope/workspace.h"

namespace kope::ui {

class EngineWorker;

class Engine : public QObject {
  Q_OBJECT
 public:
  explicit Engine(std::filesystem::path workspace, QObject* parent = nullptr);
  ~Engine() override;

  // A new evaluation supersedes any earlier one still pending: the earlier result is recorded in the
  // workspace but not delivered. Returns the job id.
  quint64 evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                   const EvalOptions& options);
  // The optimisation loop over one task with the offline policy; attempts arrive one by one.
  quint64 runLoop(const Suite& suite, const std::string& task, const LoopOptions& options);
  void refreshHistory(const std::optional<std::string>& task, int limit = 200);
  // Any recorded kernel version, by its workspace id.
  void loadKernel(qint64 kernelId);

  bool busy() const { return pending_ > 0; }
  const std::filesystem::path& workspace() const { return workspace_; }

 signals:
  void busyChanged(bool busy);
  void evaluationFinished(quint64 job, qint64 evaluationId, const kope::EvalReport& report);
  void loopAttempt(quint64 job, const QString& task, const kope::Attempt& attempt);
  void loopFinished(quint64 job, const QVector<kope::TaskOutcome>& outcomes);
  void jobFailed(quint64 job, const QString& error);
  void historyReady(const QVector<kope::EvaluationRow>& rows);
  void kernelLoaded(qint64 kernelId, const QString& source);

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
  int pending_ = 0;
};

}  // namespace kope::ui
