#include "engine.h"

#include <QMetaObject>
#include <QPointer>

#include <functional>
#include <memory>

#include "kope/error.h"

namespace kope::ui {

// Lives on the engine thread; opens the workspace there on first use.
class EngineWorker : public QObject {
 public:
  explicit EngineWorker(std::filesystem::path dir) : dir_(std::move(dir)) {}

  Workspace& workspace() {
    if (!ws_) {
      ws_ = std::make_unique<Workspace>(Workspace::open(dir_));
      ev_ = std::make_unique<Evaluator>(EvalPaths::under(ws_->dir()));
    }
    return *ws_;
  }
  Evaluator& evaluator() {
    workspace();
    return *ev_;
  }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<Workspace> ws_;
  std::unique_ptr<Evaluator> ev_;
};

namespace {

// Runs `f` on the UI thread with the engine, unless the engine is gone by then.
template <typename F>
void deliver(const QPointer<Engine>& self, F f) {
  QMetaObject::invokeMethod(self.data(), [self, f]() {
    if (self) f(*self);
  }, Qt::QueuedConnection);
}

}  // namespace

Engine::Engine(std::filesystem::path workspace, QObject* parent) : QObject(parent), workspace_(std::move(workspace)) {
  worker_ = new EngineWorker(workspace_);
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_.setObjectName("kope-engine");
  thread_.start();
}

Engine::~Engine() {
  thread_.quit();
  thread_.wait();
}

void Engine::began() {
  if (pending_++ == 0) emit busyChanged(true);
}

void Engine::ended() {
  if (--pending_ == 0) emit busyChanged(false);
}

void Engine::onWorker(quint64 job, bool counted, std::function<void(EngineWorker&)> work) {
  if (counted) began();
  QPointer<Engine> self(this);
  EngineWorker* w = worker_;
  QMetaObject::invokeMethod(worker_, [self, w, job, counted, work]() {
    try {
      work(*w);
    } catch (const std::exception& e) {
      const QString msg = QString::fromStdString(e.what());
      deliver(self, [job, counted, msg](Engine& engine) {
        if (counted) engine.ended();
        emit engine.jobFailed(job, msg);
      });
    }
  }, Qt::QueuedConnection);
}

quint64 Engine::evaluate(const Task& task, const std::string& source, const std::string& kernel_name,
                         const EvalOptions& options) {
  const quint64 job = next_job_++;
  latest_eval_ = job;
  QPointer<Engine> self(this);
  onWorker(job, true, [=](EngineWorker& w) {
    const Recorded rec = evaluate_in_new_run(w.workspace(), w.evaluator(), "kope-workbench evaluate " + kernel_name,
                                             task, {source, kernel_name, kernel_name, thought_of(source)}, "cpu",
                                             options);
    const qint64 eval_id = rec.evaluation_id;
    const EvalReport rep = rec.report;
    deliver(self, [job, eval_id, rep](Engine& engine) {
      engine.ended();
      if (job == engine.latest_eval_) emit engine.evaluationFinished(job, eval_id, rep);
    });
  });
  return job;
}

quint64 Engine::runLoop(const Suite& suite, const std::string& task, const LoopOptions& options) {
  const quint64 job = next_job_++;
  QPointer<Engine> self(this);
  LoopOptions opt = options;
  opt.tasks = {task};
  onWorker(job, true, [=](EngineWorker& w) {
    OfflinePolicy policy;
    const LoopRun lr = run_loop_in_new_run(w.workspace(), w.evaluator(), suite, policy, opt,
                                           "kope-workbench run --tasks " + task, [&](const LoopEvent& e) {
      if (!e.attempt) return;
      const Attempt a = *e.attempt;
      const QString t = QString::fromStdString(e.task);
      deliver(self, [job, t, a](Engine& engine) { emit engine.loopAttempt(job, t, a); });
    });
    const QVector<TaskOutcome> out(lr.outcomes.begin(), lr.outcomes.end());
    deliver(self, [job, out](Engine& engine) {
      engine.ended();
      emit engine.loopFinished(job, out);
    });
  });
  return job;
}

void Engine::refreshHistory(const std::optional<std::string>& task, int limit) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    auto rows = w.workspace().evaluations(task, limit);
    const QVector<EvaluationRow> out(rows.begin(), rows.end());
    deliver(self, [out](Engine& engine) { emit engine.historyReady(out); });
  });
}

void Engine::loadKernel(qint64 kernelId) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    auto src = w.workspace().kernel_source(kernelId);
    if (!src) throw Error("no kernel " + std::to_string(kernelId) + " in the workspace");
    const QString text = QString::fromStdString(*src);
    deliver(self, [kernelId, text](Engine& engine) { emit engine.kernelLoaded(kernelId, text); });
  });
}

}  // namespace kope::ui
