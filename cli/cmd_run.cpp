// `kope run`: the optimisation loop. The policy proposes, kope executes and records, and only a correct and
// faster kernel becomes the incumbent. This file parses every policy's options and runs the offline policy
// (the shipped kernels, no network); `--policy llm` runs in cmd_agent.cpp.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/format.h"
#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/common.h"
#include "kope/cli/print_report.h"
#include "kope/cli/run.h"
#include "kope/eval/evaluator.h"
#include "kope/loop/run_control.h"

using namespace kope::eval;
using namespace kope::loop;
using namespace kope::exec;
using namespace kope::workspace;

namespace kope::cli {

namespace {

using nlohmann::json;

// A line per attempt on stderr while the run goes on.
void print_outcomes(const Suite& suite, const std::vector<TaskOutcome>& outcomes, const SuiteSummary& summary,
                    std::ostream& out) {
  out << std::left << std::setw(26) << "task" << std::setw(7) << "level" << std::setw(10) << "attempts"
      << std::setw(18) << "speedup" << "incumbent\n";
  for (const auto& o : outcomes) {
    const Task* t = suite.find(o.task);
    out << std::left << std::setw(26) << o.task << std::setw(7) << (t ? "L" + std::to_string(t->level) : "-")
        << std::setw(10) << o.attempts.size() << std::setw(18)
        << format::speedup(o.incumbent_speedup) + " vs " + o.incumbent_baseline << o.incumbent_name << "\n";
    if (!o.error.empty()) out << "    error: " << o.error << "\n";
  }
  out << "\n";
  print_suite_summary(summary, out);
}

// The offline policy's run. Signals steer it: SIGINT/SIGTERM stop now, SIGTSTP/SIGUSR1 pause after the
// attempt, SIGCONT/SIGUSR2 resume.
int run_offline(const RunRequest& r, const Invocation& inv) {
  const device::DevicePool pool = require_pool(r.device);
  const Suite suite = r.loop.tasks.empty() ? r.suite.load_at_levels("1") : r.suite.load();
  for (const auto& name : r.loop.tasks) suite.require(name);  // before anything is recorded
  Workspace ws = Workspace::open(inv.workspace_dir());
  Evaluator ev(EvalPaths::under(ws.dir()));
  LoopOptions lo = r.loop;
  apply_pool(pool, lo);
  lo.control = std::make_shared<RunControl>();
  lo.eval.cancel = lo.control->cancel_token();
  std::ostream& err = inv.err;
  lo.eval_progress = [&err](const std::string& task, const EvalProgress& p) { print_goldens(task, p, err); };
  lo.control->on_act = [&err](const SteeringAct& s) { err << "-- " << s.act << (s.detail.empty() ? "" : " " + s.detail) << "\n"; };
  lo.control->on_phase = [&err](const std::string& task, const std::string& phase) {
    if (phase == "paused") err << "-- paused before the next attempt on " << task << " (SIGCONT or SIGUSR2 resumes)\n";
  };
  const agent::PolicyChoice& choice = r.policy;
  const PolicyFactory policies = [&choice](Workspace& w) { return agent::make_policy(choice, w); };
  SignalSteering signals(*lo.control);
  const LoopRun lr = run_loop_in_new_run(ws, ev, suite, policies, lo, inv.command_line(),
                                         [&err](const LoopEvent& e) { print_attempt(e, err); });
  bool any_error = false, any_internal = false;
  std::vector<std::string> names;
  for (const auto& o : lr.outcomes) {
    any_error = any_error || !o.error.empty();
    any_internal = any_internal || o.internal_error;
    names.push_back(o.task);
  }
  const SuiteSummary summary = incumbent_summary(ws, suite, names, lo.device);
  if (r.json) {
    inv.out << dump_json(json{{"run_id", lr.run_id}, {"workspace", ws.dir().string()}, {"policy", r.policy.policy},
                              {"tasks", to_json(lr.outcomes)}, {"summary", to_json(summary)}}, 2) << "\n";
  } else {
    print_outcomes(suite, lr.outcomes, summary, inv.out);
    inv.out << "run " << lr.run_id << (lo.control->stopped() ? " stopped and" : "") << " recorded in "
            << ws.dir().string() << "\n";
  }
  // A task that cannot be evaluated is bad input; kope's own failure on some attempt is an internal error.
  return any_internal ? kExitInternal : any_error ? kExitBadInput : kExitOk;
}

class RunCommand : public Command {
 public:
  std::string name() const override { return "run"; }
  std::string description() const override {
    return "the optimisation loop: the policy proposes, kope executes and records, only a correct and faster "
           "kernel becomes the incumbent";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"run [--tasks A,B] [--level 1,2] [--max-attempts N]",
             "the optimisation loop: the policy proposes, kope executes and records,\nonly a correct and faster "
             "kernel becomes the incumbent; without --tasks\nit runs the tasks of --level (default 1 for the "
             "embedded suite)"},
            {"run --policy llm --profile NAME", "the LLM agent (see `kope run --help`)"}};
  }

  void add_options(CLI::App& app) override {
    add_value(app, "--policy", [this](const std::string& v) {
      if (v != "offline" && v != "llm")
        throw UsageError("policy \"" + v + "\" is not available in this build (policies: offline, llm)");
      r_.policy.policy = v;
    }, "NAME", "offline (default: the shipped kernels, no network) or llm (a language model)");
    add_value(app, "--kernels", [this](const std::string& v) { r_.policy.kernels = v; }, "DIR",
              "offline: propose DIR/<task>/*.cpp instead of the shipped kernels");
    add_device_option(app, r_.device, "where kernels run (default cpu): the loop and the LLM agent on any available device");
    add_executor_options(app, executor_);
    add_suite_option(app, r_.suite);
    add_level_option(app, r_.suite, "without --tasks, the tasks of these levels (default: 1 of the embedded suite; "
                                    "every level of --suite, and for the LLM agent)");
    add_json_option(app, r_.json);
    add_loop_options(app, r_.loop);
    add_eval_options(app, r_.loop.eval);
    llm_only_ = add_llm_options(app, r_.policy);
  }

  int run(const Invocation& inv) override {
    r_.device = executor_.device_spec(r_.device.value_or("cpu"));
    if (r_.policy.policy == "llm") {
      if (inv.app.count("--kernels")) throw UsageError("--kernels applies to --policy offline only");
      return run_llm(r_, inv);
    }
    for (const auto& name : llm_only_)
      if (inv.app.count(name)) throw UsageError(name + " applies to --policy llm only");
    return run_offline(r_, inv);
  }

 private:
  RunRequest r_;
  ExecutorChoice executor_;
  std::vector<std::string> llm_only_;
};

}  // namespace

std::unique_ptr<Command> run_command() { return std::make_unique<RunCommand>(); }

}  // namespace kope::cli
