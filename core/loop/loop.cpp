#include "kope/loop/loop.h"

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/loop/run_control.h"
#include "kope/base/text.h"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <thread>
#include "kope/memory/memory.h"
#include "kope/memory/text.h"
#include "kope/base/sha256.h"
#include "kope/loop/stop_rules.h"

using namespace kope::workspace;
using namespace kope::eval;

namespace kope::loop {

using nlohmann::json;

namespace {

std::string feedback_of(const EvalReport& rep) {
  if (!rep.errors.empty()) return rep.errors.front();
  auto s = rep.speedup();
  return "correct" + (s ? ", speedup " + std::to_string(*s) : std::string());
}

// The input scene the memory keeps with each Case: per case, tensors with dtype and resolved shape, attrs.
json scene_of(const Task& task) {
  json cases = json::array();
  for (const Case& c : task.cases) {
    const ConcreteCase cc = resolve_case(task, c);
    json ins = json::array(), outs = json::array(), attrs = json::object();
    for (const auto& x : cc.inputs) ins.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
    for (const auto& x : cc.outputs) outs.push_back({{"name", x.name}, {"dtype", dtype_name(x.dtype)}, {"shape", x.shape}});
    for (const auto& [k, v] : cc.attrs) attrs[k] = v;
    cases.push_back({{"case", cc.name}, {"inputs", ins}, {"outputs", outs}, {"attrs", attrs}});
  }
  return cases;
}

std::string skip_reason(const memory::KnownFailure& f) {
  std::string fb = f.feedback.substr(0, f.feedback.find('\n'));
  if (fb.size() > 120) fb = fb.substr(0, 117) + "...";
  return "failed here before (case " + std::to_string(f.case_id) + ": " + f.status + (fb.empty() ? "" : ": " + fb) + ")";
}

}  // namespace

Recorded evaluate_recorded(Workspace& ws, Evaluator& ev, int64_t run, const Task& task, const KernelSource& kernel,
                           const std::string& device, std::optional<int64_t> prev, const EvalOptions& options) {
  Recorded r;
  try {
    memory::MemoryStore(ws.handle()).note_scene(task.name, task.digest, scene_of(task));
  } catch (const Error&) {
    // a case whose shapes do not resolve: the evaluation reports it; the Case is kept without a scene
  }
  r.kernel_id = ws.add_kernel(task.name, kernel.source, kernel.origin, kernel.thought);
  r.evaluation_id = ws.begin_evaluation(run, r.kernel_id, task, device, prev);
  // Nothing is left "running": whatever goes wrong below, the evaluation is closed as "error" first.
  auto close_as_error = [&](const std::string& why) noexcept {
    try {
      ws.fail_evaluation(r.evaluation_id, why);
    } catch (...) {
      // The database itself failed: Workspace::open marks it interrupted once this process is gone.
    }
  };
  try {
    r.report = ev.evaluate(task, kernel.source, kernel.name, options);
    r.report.device = device;
    // One evaluation's interval holds its own noise; how far whole evaluations move on this device is learned from
    // the baselines timed in the workspace's earlier ones, and widens the interval that promotion reads.
    if (const BetweenEvaluations b = ws.between_evaluations(device); b.dof > 0) r.report.between = b;
    ws.finish_evaluation(r.evaluation_id, r.report);
  } catch (const InfraError& e) {
    r.error = "infrastructure failure: " + escape_invalid_utf8(e.what());
    r.infrastructure = true;
    close_as_error(r.error);
  } catch (const EnvError& e) {
    close_as_error(e.what());
    throw;
  } catch (const Error& e) {
    r.error = escape_invalid_utf8(e.what());
    close_as_error(r.error);
  } catch (const std::exception& e) {
    r.error = "internal error: " + escape_invalid_utf8(e.what());
    r.internal_error = true;
    close_as_error(r.error);
  } catch (...) {
    r.error = "internal error: an unknown exception";
    r.internal_error = true;
    close_as_error(r.error);
  }
  return r;
}

Promotion decide_promotion(const EvalReport& rep, double incumbent_speedup, double min_gain, bool approved,
                           const std::string& incumbent_baseline) {
  Promotion p;
  if (!rep.correct()) {
    p.reason = "not correct";
    return p;
  }
  const std::string own = rep.baseline();
  const bool vs_naive = incumbent_baseline == "naive" && own != "naive";
  p.baseline = vs_naive ? "naive" : own;
  p.speedup = vs_naive ? rep.speedup_vs_naive() : rep.speedup();
  p.interval = report_speedup_interval(rep, vs_naive);
  const bool incomparable = !incumbent_baseline.empty() && incumbent_baseline != "naive" && own == "naive";
  for (const CaseResult& c : rep.cases)
    if (faster_than_hardware_floor(c)) {
      p.needs_review = !approved;
      if (p.needs_review) {
        std::ostringstream s;
        s << "case " << c.name << " took " << *c.kernel_median_ns << " ns, under half the " << *c.hw_bound_ns
          << " ns its data needs at the measured bandwidth: a person must approve it (kope review)";
        p.reason = s.str();
        return p;
      }
      break;
    }
  const double bar = incumbent_speedup * min_gain;
  if (incomparable) {
    p.reason = "measured against the naive baseline only, while the incumbent's " + std::to_string(incumbent_speedup) +
               "x is against the " + incumbent_baseline + " baseline: not comparable";
    return p;
  }
  if (!p.interval || !p.speedup) {
    p.reason = "no timing samples to bound the speedup";
    return p;
  }
  std::ostringstream s;
  s.precision(4);
  s << "95% interval [" << p.interval->low << ", " << p.interval->high << "]x against the " << p.baseline
    << " baseline";
  if (rep.between && rep.between->dof >= kBetweenMinDof)
    s << " (with evaluations' spread, sd " << rep.between->sd_log << " in log, from " << rep.between->evaluations
      << " earlier evaluations)";
  if (p.interval->low > bar) {
    p.promote = true;
    s << ": its lower bound beats " << incumbent_speedup << "x by the margin " << min_gain;
  } else {
    s << ": its lower bound does not beat " << incumbent_speedup << "x x " << min_gain << " = " << bar;
  }
  p.reason = s.str();
  return p;
}

Recorded evaluate_in_new_run(Workspace& ws, Evaluator& ev, const std::string& command, const Task& task,
                             const KernelSource& kernel, const std::string& device, const EvalOptions& options) {
  const int64_t run = ws.begin_run(command, device);
  Recorded r;
  try {
    r = evaluate_recorded(ws, ev, run, task, kernel, device, std::nullopt, options);
  } catch (...) {
    try {
      ws.finish_run(run, "error");
    } catch (...) {  // the database failed too: the run is marked interrupted when next opened
    }
    throw;
  }
  ws.finish_run(run, !r.error.empty() ? "error" : r.report.cancelled ? "cancelled" : "done");
  if (r.internal_error) throw std::runtime_error(r.error);
  if (!r.error.empty()) throw Error(r.error);
  return r;
}

namespace {

// The host of a pool with the fewest evaluations in flight, held for one evaluation.
class HostChooser {
 public:
  explicit HostChooser(std::vector<std::string> specs) : busy_(specs.size(), 0), specs_(std::move(specs)) {}
  bool empty() const { return specs_.empty(); }
  std::size_t take() {
    std::lock_guard<std::mutex> lock(mu_);
    const std::size_t i = static_cast<std::size_t>(std::min_element(busy_.begin(), busy_.end()) - busy_.begin());
    ++busy_[i];
    return i;
  }
  void give_back(std::size_t i) {
    std::lock_guard<std::mutex> lock(mu_);
    --busy_[i];
  }
  const std::string& spec(std::size_t i) const { return specs_[i]; }

 private:
  std::mutex mu_;
  std::vector<int> busy_;
  const std::vector<std::string> specs_;
};

// One task of a run: its incumbent, its memory, and the attempts the policy makes, as steps. `halt` is the run's:
// a stop rule for the whole run, or a cancel, ends the tasks after this one too.
class TaskRun {
 public:
  TaskRun(Workspace& ws, Evaluator& ev, Policy& policy, const LoopOptions& options, int64_t run_id, const Task& task,
          const std::function<void(const LoopEvent&)>& progress, StopState& stop, std::atomic<bool>& halt,
          HostChooser& hosts)
      : ws_(ws), ev_(ev), policy_(policy), options_(options), eval_(options.eval), run_id_(run_id), task_(task),
        progress_(progress), control_(options.control.get()), stop_(stop), halt_(halt), hosts_(hosts),
        mem_(ws.handle()) {
    // Stopping this task alone (with others in flight) cancels its evaluation only; stopping the run, all.
    if (control_) eval_.cancel = control_->task_cancel_token(task.name);
    if (options.eval_progress)
      eval_.progress = [f = options.eval_progress, name = task.name](const EvalProgress& p) { f(name, p); };
  }

  TaskOutcome run() {
    out_.task = task_.name;
    if (progress_) progress_({task_.name, nullptr});
    load_incumbent();
    if (!options_.recheck) failed_ = mem_.known_failures(task_.name, options_.device);
    for (int k = 0; k < options_.max_attempts; ++k) {
      // steering: pause/stop, fork, hints and the steering log, between attempts
      if (control_ && !steer_before_attempt(*control_, ws_, run_id_, task_.name, state_, incumbent_eval_, out_)) break;
      if (stop_rule_fired()) break;
      retrieve();
      std::optional<Proposal> p = propose();
      if (!p) break;
      stop_.tokens += p->tokens;
      if (p->cancelled || !p->no_candidate.empty()) {
        if (!no_candidate(*p)) break;
        continue;
      }
      state_.tried.push_back(sha256_hex(p->source));
      if (control_ && !control_->review(task_.name, *p)) continue;  // steering: held for approval, rejected
      if (!attempt(*p)) break;
    }
    return std::move(out_);
  }

 private:
  void load_incumbent() {
    state_.task = &task_;
    state_.run_id = run_id_;
    state_.device = options_.device;
    if (auto inc = ws_.incumbent(task_.name, options_.device)) {
      state_.incumbent_speedup = inc->speedup;
      incumbent_baseline_ = inc->baseline;
      state_.incumbent_source = ws_.kernel_source(inc->kernel_id).value_or("");
      incumbent_eval_ = inc->evaluation_id;
      incumbent_thought_ = thought_of(state_.incumbent_source);
      if (auto row = ws_.evaluation(inc->evaluation_id)) out_.incumbent_name = row->kernel_origin;
    }
    out_.incumbent_speedup = state_.incumbent_speedup;
    out_.incumbent_baseline = incumbent_baseline_;
  }

  bool stop_rule_fired() {
    const StopDecision d = stop_reason(options_, stop_, since_improvement_, state_.incumbent_speedup);
    if (d.reason.empty()) return false;
    out_.stopped = d.reason;
    if (d.whole_run) halt_ = true;
    return true;
  }

  // z = Retrieve(s, M)
  void retrieve() {
    memory::RetrieveState rs;
    rs.task = task_.name;
    rs.device = options_.device;
    if (incumbent_eval_) rs.incumbent_case = mem_.case_of_evaluation(*incumbent_eval_);
    rs.feedback = state_.latest_feedback;
    rs.target = "beat " + std::to_string(state_.incumbent_speedup) + "x on " + options_.device;
    rs.tags = memory::idea_tags(incumbent_thought_, state_.incumbent_source);
    state_.experience = memory::retrieve(mem_, rs, options_.retrieve);
  }

  // The policy's next kernel, skipping those the memory says failed here before (each skip said, and counted);
  // nullopt when the policy has none or a stop rule fires.
  std::optional<Proposal> propose() {
    for (int skips = 0; skips < 1000; ++skips) {
      std::optional<Proposal> p = policy_.propose(state_);
      if (!p) return p;
      const std::string sha = sha256_hex(p->source);
      auto f = failed_.find(sha);
      if (f == failed_.end()) return p;
      state_.tried.push_back(sha);
      out_.skipped.push_back({p->name, sha, f->second.case_id, skip_reason(f->second)});
      if (progress_) progress_({task_.name, nullptr, &out_.skipped.back()});
      // A model's skipped reply still cost tokens and a turn; say why it was not run.
      stop_.tokens += p->tokens;
      ++since_improvement_;
      state_.latest_feedback = "Your previous kernel was not run: it " + skip_reason(f->second) + ". Propose a different one.";
      policy_.recorded(*p, 0, "skipped");
      if (stop_rule_fired()) return std::nullopt;
    }
    return std::nullopt;
  }

  void emit(const Attempt& a) {
    out_.attempts.push_back(a);
    if (progress_) progress_({task_.name, &out_.attempts.back()});
  }

  // The policy produced no kernel: an attempt without one. False: the run was cancelled.
  bool no_candidate(const Proposal& p) {
    Attempt a;
    a.name = p.name;
    a.status = p.cancelled ? "cancelled" : "no_candidate";
    a.tokens = p.tokens;
    a.message = p.cancelled ? "cancelled" : p.no_candidate;
    a.transcript_id = p.transcript_id;
    state_.latest_feedback = p.cancelled ? "" : "Your previous reply produced no candidate: " + p.no_candidate;
    ++since_improvement_;
    policy_.recorded(p, 0, a.status);
    emit(a);
    if (!p.cancelled) return true;
    out_.stopped = "cancelled";
    halt_ = true;
    return false;
  }

  // Execute(a) and Record: the evaluation, what the agent was shown for it, the feedback and the incumbent.
  // False: the task cannot go on (it cannot be evaluated, or the evaluation was cancelled).
  bool attempt(const Proposal& p) {
    Attempt a;
    a.name = p.name;
    a.thought = p.thought;
    a.transcript_id = p.transcript_id;
    a.tokens = p.tokens;
    const Recorded rec = evaluate_on_a_host(p);
    a.evaluation_id = rec.evaluation_id;
    record_context(rec.evaluation_id);
    if (rec.infrastructure) return lost_to_infrastructure(p, rec, a);
    infra_in_a_row_ = 0;
    if (!rec.error.empty()) return failed_evaluation(p, rec, a);
    const EvalReport& rep = rec.report;
    if (rep.cancelled) {  // stopped while it ran: recorded as cancelled, no verdict, and the run ends
      policy_.recorded(p, a.evaluation_id, "cancelled");
      a.status = "cancelled";
      a.message = "the evaluation was cancelled";
      emit(a);
      out_.stopped = "cancelled";
      halt_ = true;
      return false;
    }
    policy_.recorded(p, a.evaluation_id, rep.status());
    ++since_improvement_;
    a.status = rep.status();
    a.speedup = rep.speedup();
    a.accuracy_bits = rep.accuracy_bits();
    a.accuracy_max_ulps = rep.accuracy_max_ulps();
    a.message = feedback_of(rep);
    state_.latest_feedback = a.message;
    promote(p, rep, rec.kernel_id, a);
    emit(a);
    return true;
  }

  Recorded evaluate_on_a_host(const Proposal& p) {
    const KernelSource k{p.source, p.name, p.name, p.thought};
    if (hosts_.empty()) return evaluate_recorded(ws_, ev_, run_id_, task_, k, options_.device, incumbent_eval_, eval_);
    const std::size_t h = hosts_.take();
    struct Back {
      HostChooser& c;
      std::size_t i;
      ~Back() { c.give_back(i); }
    } back{hosts_, h};
    EvalOptions on_host = eval_;
    on_host.device = hosts_.spec(h);
    return evaluate_recorded(ws_, ev_, run_id_, task_, k, options_.device, incumbent_eval_, on_host);
  }

  // What the agent was shown for this attempt, for a person to see later.
  void record_context(int64_t evaluation_id) {
    std::vector<memory::ContextRow> shown;
    for (std::size_t i = 0; i < state_.experience.size(); ++i) {
      const auto& it = state_.experience[i];
      shown.push_back({evaluation_id, static_cast<int>(i), it.case_id, it.provenance, it.kind, it.score});
    }
    mem_.record_context(evaluation_id, shown);
  }

  // The cluster lost the measurement (kope/base/error.h, InfraError): recorded as such, not as the kernel's
  // verdict (no Case, not "failed here before"), and the same kernel may be proposed again. Three in a row end the
  // task: the infrastructure, not the kernels, needs a look.
  bool lost_to_infrastructure(const Proposal& p, const Recorded& rec, Attempt& a) {
    policy_.recorded(p, a.evaluation_id, "infrastructure");
    a.status = "infrastructure";
    a.message = rec.error;
    std::erase(state_.tried, sha256_hex(p.source));
    emit(a);
    if (++infra_in_a_row_ < kInfraInARow) return true;
    out_.error = std::to_string(kInfraInARow) + " attempts in a row lost to the infrastructure; the last: " + rec.error;
    return false;
  }

  bool failed_evaluation(const Proposal& p, const Recorded& rec, Attempt& a) {
    policy_.recorded(p, a.evaluation_id, "error");
    a.status = "error";
    a.message = rec.error;
    emit(a);
    if (rec.internal_error) {
      // kope's own failure on this candidate (recorded as "error"): the next candidate may fare better.
      out_.internal_error = true;
      if (out_.error.empty()) out_.error = rec.error;
      state_.latest_feedback = rec.error;
      return true;
    }
    out_.error = rec.error;  // the task itself cannot be evaluated: on to the next task
    return false;
  }

  void promote(const Proposal& p, const EvalReport& rep, int64_t kernel, Attempt& a) {
    const bool pinned = control_ && control_->pinned(task_.name);  // steering: a pinned incumbent stays
    const Promotion pr = decide_promotion(rep, state_.incumbent_speedup, options_.min_gain, false, incumbent_baseline_);
    // The interval beside the attempt's speedup is against the same baseline as that speedup (the report's own);
    // the promotion's may be against the naive one, like the incumbent's.
    if (const auto iv = report_speedup_interval(rep)) {
      a.speedup_low = iv->low;
      a.speedup_high = iv->high;
    }
    if (pr.needs_review) {
      a.needs_review = true;
      a.message += "; needs review: " + pr.reason;
      ws_.request_review(a.evaluation_id, pr.reason);
    }
    if (!pr.promote || pinned) return;
    a.promoted = true;
    since_improvement_ = 0;
    // Stored against the report's own baseline (the library where it ran), from here on like with like.
    ws_.set_incumbent({task_.name, options_.device, kernel, a.evaluation_id, *a.speedup, rep.baseline()});
    state_.incumbent_speedup = *a.speedup;
    incumbent_baseline_ = rep.baseline();
    out_.incumbent_baseline = incumbent_baseline_;
    state_.incumbent_source = p.source;
    incumbent_thought_ = p.thought;
    incumbent_eval_ = a.evaluation_id;
    out_.incumbent_speedup = *a.speedup;
    out_.incumbent_name = p.name;
  }

  Workspace& ws_;
  Evaluator& ev_;
  Policy& policy_;
  const LoopOptions& options_;
  EvalOptions eval_;  // options_.eval with this task's cancel token
  const int64_t run_id_;
  const Task& task_;
  const std::function<void(const LoopEvent&)>& progress_;
  RunControl* control_;
  StopState& stop_;  // the run's: tokens and wall time, shared by the tasks in flight
  std::atomic<bool>& halt_;
  HostChooser& hosts_;
  static constexpr int kInfraInARow = 3;
  int infra_in_a_row_ = 0;
  int since_improvement_ = 0;
  memory::MemoryStore mem_;
  std::map<std::string, memory::KnownFailure> failed_;
  TaskOutcome out_;
  PolicyState state_;
  std::optional<int64_t> incumbent_eval_;
  std::string incumbent_thought_;
  std::string incumbent_baseline_ = "naive";  // no incumbent: the naive baseline itself at 1x
};

}  // namespace

namespace {

// Serialises the progress callback of tasks in flight at once.
std::function<void(const LoopEvent&)> one_at_a_time(const std::function<void(const LoopEvent&)>& progress,
                                                   std::mutex& mu) {
  if (!progress) return {};
  return [&progress, &mu](const LoopEvent& e) {
    std::lock_guard<std::mutex> lock(mu);
    progress(e);
  };
}

// Tasks handed out in the suite's order to `jobs` threads, each with its own connection and policy; the first
// exception of any thread ends the run (after every thread has stopped) and is rethrown here.
void run_in_parallel(Workspace& ws, const PolicyFactory& make_policy, int jobs, std::size_t count,
                     std::atomic<bool>& halt, const std::function<void(Workspace&, Policy&, std::size_t)>& one) {
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::exception_ptr first;
  auto thread_body = [&] {
    try {
      Workspace mine = Workspace::open(ws.dir());
      const std::unique_ptr<Policy> policy = make_policy(mine);
      for (std::size_t i; !halt && (i = next++) < count;) one(mine, *policy, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu);
      if (!first) first = std::current_exception();
      halt = true;
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < jobs; ++j) threads.emplace_back(thread_body);
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

// The caller's one policy, for a run without parallel tasks.
class BorrowedPolicy : public Policy {
 public:
  explicit BorrowedPolicy(Policy& p) : p_(p) {}
  std::string name() const override { return p_.name(); }
  std::optional<Proposal> propose(const PolicyState& s) override { return p_.propose(s); }
  void recorded(const Proposal& p, int64_t e, const std::string& st) override { p_.recorded(p, e, st); }

 private:
  Policy& p_;
};

PolicyFactory borrow(Policy& policy, const LoopOptions& options) {
  if (options.jobs > 1)
    throw std::logic_error("run_loop: --jobs " + std::to_string(options.jobs) + " needs a PolicyFactory");
  return [&policy](Workspace&) { return std::make_unique<BorrowedPolicy>(policy); };
}

}  // namespace

std::vector<TaskOutcome> run_loop(Workspace& ws, Evaluator& ev, const Suite& suite, const PolicyFactory& make_policy,
                                  const LoopOptions& options, int64_t run_id,
                                  const std::function<void(const LoopEvent&)>& progress) {
  std::vector<const Task*> tasks;
  if (options.tasks.empty()) {
    for (const Task& t : suite.tasks()) tasks.push_back(&t);
  } else {
    for (const std::string& name : options.tasks) tasks.push_back(&suite.require(name));
  }
  // Every task's baseline and goldens first, on all cores: nothing is timed yet, and each task's first attempt
  // then starts at once instead of waiting for its reference build and golden run.
  EvalOptions ahead = options.eval;
  ahead.device = options.device;
  ev.prepare(tasks, ahead);
  std::vector<std::optional<TaskOutcome>> done(tasks.size());
  RunControl* control = options.control.get();
  StopState stop;
  std::atomic<bool> halt{false};
  std::mutex progress_mu;
  const auto report = one_at_a_time(progress, progress_mu);
  HostChooser hosts(options.device_specs.size() > 1 ? options.device_specs : std::vector<std::string>{});
  auto one = [&](Workspace& w, Policy& policy, std::size_t i) {
    if (halt || (control && control->stopped())) return;  // steering: a stop ends the run between tasks
    if (control && control->task_stopped(tasks[i]->name)) return;
    done[i] = TaskRun(w, ev, policy, options, run_id, *tasks[i], report, stop, halt, hosts).run();
  };
  const int jobs = static_cast<int>(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(1, options.jobs)), 1,
                                                            std::max<std::size_t>(1, tasks.size())));
  Evaluator::evaluating_at_once(static_cast<std::size_t>(jobs));
  if (jobs == 1) {
    const std::unique_ptr<Policy> policy = make_policy(ws);
    for (std::size_t i = 0; i < tasks.size() && !halt; ++i) one(ws, *policy, i);
  } else {
    run_in_parallel(ws, make_policy, jobs, tasks.size(), halt, one);
  }
  std::vector<TaskOutcome> outcomes;
  for (auto& o : done)
    if (o) outcomes.push_back(std::move(*o));
  if (control) record_steering(ws, run_id, control->take_acts());  // steering: acts after the last attempt
  return outcomes;
}

std::vector<TaskOutcome> run_loop(Workspace& ws, Evaluator& ev, const Suite& suite, Policy& policy,
                                  const LoopOptions& options, int64_t run_id,
                                  const std::function<void(const LoopEvent&)>& progress) {
  return run_loop(ws, ev, suite, borrow(policy, options), options, run_id, progress);
}

LoopRun run_loop_in_new_run(Workspace& ws, Evaluator& ev, const Suite& suite, const PolicyFactory& make_policy,
                            const LoopOptions& options, const std::string& command,
                            const std::function<void(const LoopEvent&)>& progress) {
  LoopRun r;
  r.run_id = ws.begin_run(command, options.device);
  try {
    r.outcomes = run_loop(ws, ev, suite, make_policy, options, r.run_id, progress);
  } catch (...) {
    try {
      ws.finish_run(r.run_id, "error");
    } catch (...) {  // the database failed too: the run is marked interrupted when next opened
    }
    throw;
  }
  ws.finish_run(r.run_id, options.control && options.control->stopped() ? "stopped" : "done");
  return r;
}

LoopRun run_loop_in_new_run(Workspace& ws, Evaluator& ev, const Suite& suite, Policy& policy,
                            const LoopOptions& options, const std::string& command,
                            const std::function<void(const LoopEvent&)>& progress) {
  return run_loop_in_new_run(ws, ev, suite, borrow(policy, options), options, command, progress);
}

json to_json(const std::vector<TaskOutcome>& outcomes) {
  json arr = json::array();
  for (const auto& o : outcomes) {
    json attempts = json::array();
    for (const auto& a : o.attempts)
      attempts.push_back({{"evaluation_id", a.evaluation_id}, {"name", a.name}, {"thought", a.thought},
                          {"status", a.status}, {"speedup", a.speedup ? json(*a.speedup) : json(nullptr)},
                          {"speedup_ci95", a.speedup_low ? json::array({*a.speedup_low, *a.speedup_high}) : json(nullptr)},
                          {"accuracy_bits", a.accuracy_bits ? json(*a.accuracy_bits) : json(nullptr)},
                          {"accuracy_max_ulps", a.accuracy_max_ulps ? json(*a.accuracy_max_ulps) : json(nullptr)},
                          {"promoted", a.promoted}, {"needs_review", a.needs_review}, {"message", a.message},
                          {"transcript_id", a.transcript_id ? json(a.transcript_id) : json(nullptr)}, {"tokens", a.tokens}});
    json skipped = json::array();
    for (const auto& s : o.skipped)
      skipped.push_back({{"name", s.name}, {"sha256", s.sha256}, {"case_id", s.case_id}, {"reason", s.reason}});
    arr.push_back({{"task", o.task}, {"incumbent", o.incumbent_name}, {"incumbent_speedup", o.incumbent_speedup},
                   {"incumbent_baseline", o.incumbent_baseline},
                   {"attempts", attempts}, {"skipped", skipped},
                   {"error", o.error.empty() ? json(nullptr) : json(o.error)},
                   {"stopped", o.stopped.empty() ? json(nullptr) : json(o.stopped)}});
  }
  return arr;
}

}  // namespace kope::loop
