#include "engine.h"

#include <QMetaObject>
#include <QPointer>

#include <functional>
#include <memory>

#include "kope/agent/context.h"
#include "kope/agent/make_policy.h"
#include "kope/base/error.h"
#include "kope/model/report.h"
#include "live_relay.h"
#include "run_pool.h"

using namespace kope::exec;
using namespace kope::workspace;
using namespace kope::eval;
using namespace kope::loop;

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

ProgressEvent event_of(const EvalProgress& p) {
  ProgressEvent e;
  e.phase = p.phase;
  e.case_index = p.case_index;
  e.case_count = p.case_count;
  e.case_name = p.case_name;
  if (p.result) e.result = *p.result;
  return e;
}

// The window's run controller names a policy as "offline" or an LLM profile of the settings file; the memory
// arm is chosen beside it. The policy itself is assembled as `kope run --policy llm --profile NAME` does it
// (agent::make_policy), its model request cancelled when the run is stopped.
agent::PolicyChoice policy_choice(const std::string& name, const std::string& memory, const std::string& device,
                                  const std::shared_ptr<CancelToken>& cancel, const std::optional<llm::ApiKey>& key,
                                  agent::AttemptHooks hooks) {
  agent::PolicyChoice c;
  if (name == "offline") return c;
  if (name.empty()) throw Error("choose a policy: offline, or the name of an LLM profile");
  const auto arm = agent::arm_from_name(memory);
  if (!arm) throw Error("memory arm \"" + memory + "\": expected off, dump or active");
  c.policy = "llm";
  c.profile = name;
  c.device = device;
  c.context.arm = *arm;
  c.cancel = cancel;
  c.api_key = key;
  c.hooks = std::move(hooks);
  return c;
}

}  // namespace

LoadedEvaluation load_evaluation(const Workspace& ws, qint64 id) {
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in the workspace");
  LoadedEvaluation out;
  out.row = *row;
  out.source = ws.kernel_source(row->kernel_id).value_or("");
  nlohmann::json j = nlohmann::json::parse(row->report, nullptr, false);
  if (!j.is_discarded() && j.is_object()) out.report = report_from_json(j);
  return out;
}

ComparedEvaluations compare_evaluations(const Workspace& ws, qint64 a, qint64 b) {
  const LoadedEvaluation ea = load_evaluation(ws, a), eb = load_evaluation(ws, b);
  if (!ea.report || !eb.report)
    throw Error("evaluation " + std::to_string(!ea.report ? a : b) + " has no stored report to compare");
  ComparedEvaluations out;
  out.comparison = compare_reports(*ea.report, *eb.report);
  out.comparison.a_evaluation = a;
  out.comparison.b_evaluation = b;
  out.source_a = QString::fromStdString(ea.source);
  out.source_b = QString::fromStdString(eb.source);
  return out;
}

Engine::Engine(std::filesystem::path workspace, QObject* parent) : QObject(parent), workspace_(std::move(workspace)) {
  qRegisterMetaType<quint64>("quint64");
  qRegisterMetaType<kope::ui::LiveEvent>();
  worker_ = new EngineWorker(workspace_);
  worker_->moveToThread(&thread_);
  connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_.setObjectName("kope-engine");
  thread_.start();
}

Engine::~Engine() {
  if (eval_token_) eval_token_->cancel();
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
                         const EvalOptions& options, EvalRecord record) {
  const quint64 job = next_job_++;
  latest_eval_ = job;
  if (eval_token_) eval_token_->cancel();  // the superseded evaluation stops as soon as the judge can
  eval_token_ = std::make_shared<CancelToken>();
  QPointer<Engine> self(this);
  EvalOptions opt = options;
  opt.cancel = eval_token_;
  opt.progress = [self, job](const EvalProgress& p) {
    const ProgressEvent e = event_of(p);
    deliver(self, [job, e](Engine& engine) {
      if (job == engine.latest_eval_) emit engine.evaluationProgress(job, e);
    });
  };
  onWorker(job, true, [=](EngineWorker& w) {
    if (record != EvalRecord::Always) {
      // The build alone first: the same device, flags and build folder as the evaluation, which then finds it cached.
      const EvalReport built = w.evaluator().compile(task, source, kernel_name, opt);
      if (record == EvalRecord::Never || !built.compiled || built.cancelled) {
        deliver(self, [job, built](Engine& engine) {
          engine.ended();
          if (job != engine.latest_eval_) return;
          engine.eval_token_.reset();
          if (built.cancelled) emit engine.evaluationCancelled(job);
          else emit engine.compileFinished(job, built);
        });
        return;
      }
    }
    const Recorded rec = evaluate_in_new_run(w.workspace(), w.evaluator(), "kope-workbench evaluate " + kernel_name,
                                             task, {source, kernel_name, kernel_name, thought_of(source)}, "cpu", opt);
    const qint64 eval_id = rec.evaluation_id;
    const EvalReport rep = rec.report;
    deliver(self, [job, eval_id, rep](Engine& engine) {
      engine.ended();
      if (job == engine.latest_eval_) {
        engine.eval_token_.reset();
        emit engine.evaluationFinished(job, eval_id, rep);
      }
    });
  });
  return job;
}

void Engine::cancelEvaluation() {
  if (!latest_eval_ || !eval_token_) return;
  eval_token_->cancel();
  eval_token_.reset();
  const quint64 job = latest_eval_;
  latest_eval_ = 0;  // its result, when it comes, is recorded but not shown
  emit evaluationCancelled(job);
}

namespace {

// The task each loop thread is on, per job: when a thread starts its next task, the one before it has ended.
struct ThreadTask {
  quint64 job = 0;
  std::string task;
};
thread_local ThreadTask t_current;
// RunControl calls on_phase(task, "held") and then on_held(proposal) on the task's own thread.
thread_local std::string t_held_task;

void emitPhase(const QPointer<Engine>& self, quint64 job, const std::string& task, const std::string& phase) {
  const QString t = QString::fromStdString(task), p = QString::fromStdString(phase);
  deliver(self, [job, t, p](Engine& engine) { emit engine.loopPhase(job, t, p); });
}

// The loop's events as the engine's signals: a task starting (and the end of the one before it on the same
// thread), and each attempt.
std::function<void(const LoopEvent&)> loop_events(const QPointer<Engine>& self, quint64 job) {
  return [self, job](const LoopEvent& e) {
    if (!e.attempt && !e.skipped) {
      if (t_current.job == job && !t_current.task.empty()) emitPhase(self, job, t_current.task, "finished");
      t_current = {job, e.task};
      emitPhase(self, job, e.task, "starting");
      return;
    }
    if (!e.attempt) return;
    const Attempt a = *e.attempt;
    const QString t = QString::fromStdString(e.task);
    deliver(self, [job, t, a](Engine& engine) { emit engine.loopAttempt(job, t, a); });
  };
}

// Steering callbacks and each evaluation's progress, named by their task (several run at once with jobs > 1).
void connect_control(const QPointer<Engine>& self, quint64 job, LoopOptions& opt, RunControl& control) {
  opt.eval.progress = {};
  opt.eval_progress = [self, job](const std::string& task, const EvalProgress& p) {
    const ProgressEvent e = event_of(p);
    const QString t = QString::fromStdString(task);
    deliver(self, [job, t, e](Engine& engine) { emit engine.loopProgress(job, t, e); });
  };
  control.on_phase = [self, job](const std::string& task, const std::string& phase) {
    if (phase == "held") t_held_task = task;
    emitPhase(self, job, task, phase);
  };
  control.on_held = [self, job](const Proposal& proposal) {
    const QString t = QString::fromStdString(t_held_task);
    deliver(self, [job, t, proposal](Engine& engine) { emit engine.loopHeld(job, t, proposal); });
  };
  control.on_act = [self](const SteeringAct& a) {
    deliver(self, [a](Engine& engine) { emit engine.steeringAct(a); });
  };
}

std::string run_command(const RunSettings& settings, const LoopOptions& opt) {
  std::string command = "kope-workbench run --policy " + settings.policy + " --memory " + settings.memory +
                        " --max-attempts " + std::to_string(opt.max_attempts) + " --jobs " +
                        std::to_string(opt.jobs) + " --device " + settings.devices;
  if (!opt.tasks.empty()) {
    command += " --tasks ";
    for (std::size_t i = 0; i < opt.tasks.size(); ++i) command += (i ? "," : "") + opt.tasks[i];
  }
  return command;
}

}  // namespace

quint64 Engine::runLoop(const Suite& suite, const RunSettings& settings, std::shared_ptr<RunControl> control) {
  const quint64 job = next_job_++;
  QPointer<Engine> self(this);
  LoopOptions opt = settings.loop;
  opt.tasks = settings.tasks;
  opt.control = control;
  opt.eval.cancel = control->cancel_token();
  connect_control(self, job, opt, *control);
  const std::string command = run_command(settings, opt);
  const std::string policy_name = settings.policy, memory = settings.memory, devices = settings.devices;
  const std::optional<llm::ApiKey> key = settings.api_key;
  // The agent's attempts as they happen, relayed to this thread.
  const agent::AttemptHooks live = LiveRelay::make(this, [self, job](const LiveEvent& e) {
                                     if (self) emit self->llmLive(job, e);
                                   })->hooks();
  onWorker(job, true, [=](EngineWorker& w) mutable {
    // The pool as `kope run --device` applies it: timing slots first (no run holds one now), then the devices.
    apply_device_pool(devices, opt);
    for (const std::string& task : opt.tasks)
      if (auto inc = w.workspace().incumbent(task, opt.device)) {
        const QString t = QString::fromStdString(task);
        const double speedup = inc->speedup;
        deliver(self, [job, t, speedup](Engine& engine) { emit engine.loopIncumbent(job, t, speedup); });
      }
    // Each thread of tasks gets its own policy over its own connection to the workspace.
    const agent::PolicyChoice choice = policy_choice(policy_name, memory, opt.device, opt.eval.cancel, key, live);
    const PolicyFactory make = [choice](Workspace& ws) { return agent::make_policy(choice, ws); };
    const LoopRun lr = run_loop_in_new_run(w.workspace(), w.evaluator(), suite, make, opt, command,
                                           loop_events(self, job));
    const QVector<TaskOutcome> out(lr.outcomes.begin(), lr.outcomes.end());
    const qint64 run = lr.run_id;
    deliver(self, [job, run, out](Engine& engine) {
      engine.ended();
      emit engine.loopFinished(job, run, out);
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

void Engine::refreshRuns(int limit) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    auto rows = w.workspace().runs(limit);
    const QVector<RunRow> out(rows.begin(), rows.end());
    deliver(self, [out](Engine& engine) { emit engine.runsReady(out); });
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

void Engine::loadEvaluation(qint64 evaluationId) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    const LoadedEvaluation e = load_evaluation(w.workspace(), evaluationId);
    deliver(self, [e](Engine& engine) { emit engine.evaluationLoaded(e); });
  });
}

void Engine::compare(qint64 a, qint64 b) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    const ComparedEvaluations c = compare_evaluations(w.workspace(), a, b);
    deliver(self, [c](Engine& engine) { emit engine.comparisonReady(c.comparison, c.source_a, c.source_b); });
  });
}

void Engine::compareWithIncumbent(const std::string& task, qint64 b) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    auto inc = w.workspace().incumbent(task, "cpu");
    if (!inc) throw Error("task " + task + " has no incumbent yet: the baseline is still the one to beat");
    const qint64 a = inc->evaluation_id;
    deliver(self, [a, b](Engine& engine) { engine.compare(a, b); });
  });
}

void Engine::loadSteering(qint64 runId) {
  QPointer<Engine> self(this);
  onWorker(0, false, [=](EngineWorker& w) {
    auto acts = steering_log(w.workspace(), runId);
    const QVector<SteeringAct> out(acts.begin(), acts.end());
    deliver(self, [runId, out](Engine& engine) { emit engine.steeringReady(runId, out); });
  });
}

}  // namespace kope::ui
