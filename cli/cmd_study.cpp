// `kope study`: the method's experiment (issue 21, item 4). The suite's chosen levels under each memory arm with
// one policy and the same budgets; one table per arm and level, and a folder with study.json (what the window's
// study view reads), study.md and the plots.
#include <chrono>
#include <ctime>
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/format.h"
#include "kope/cli/cli.h"
#include "kope/cli/common.h"
#include "kope/cli/print_report.h"
#include "kope/cli/run.h"
#include "kope/loop/run_control.h"
#include "kope/study/study.h"

namespace fs = std::filesystem;

namespace kope::cli {

namespace {

// <workspace>/studies/<UTC time>: a study never overwrites an earlier one unless --out says so.
fs::path default_study_dir(const Invocation& inv) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return workspace::Workspace::absolute_dir(inv.workspace_dir()) / "studies" / buf;
}

void print_rows(const study::StudyReport& r, std::ostream& out) {
  out << std::left << std::setw(16) << "arm" << std::setw(7) << "level" << std::setw(10) << "compiled"
      << std::setw(9) << "correct" << std::setw(18) << "pass rate" << std::setw(9) << "fast_1" << std::setw(10)
      << "speedup" << std::setw(9) << "score" << std::setw(10) << "tokens" << "wall\n";
  for (const study::LevelRow& x : r.rows) {
    std::ostringstream pass, fast;
    pass << std::fixed << std::setprecision(1) << 100 * x.pass_rate << "% (" << x.cases_correct << "/" << x.cases << ")";
    fast << std::fixed << std::setprecision(1) << 100 * x.fast_1 << "%";
    out << std::left << std::setw(16) << x.arm << std::setw(7) << ("L" + std::to_string(x.level)) << std::setw(10)
        << (std::to_string(x.compiled) + "/" + std::to_string(x.operators)) << std::setw(9)
        << (std::to_string(x.correct) + "/" + std::to_string(x.operators)) << std::setw(18) << pass.str()
        << std::setw(9) << fast.str() << std::setw(10) << format::speedup(x.geomean_speedup) << std::setw(9)
        << std::fixed << std::setprecision(1) << x.score << std::setw(10) << x.tokens << std::setprecision(0)
        << x.wall_seconds << " s\n";
  }
}

class StudyCommand : public Command {
 public:
  std::string name() const override { return "study"; }
  std::string description() const override {
    return "the method's experiment: the suite under memory arms, one table per arm and level";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"study [--levels 1,2] [--arms off,active] [--policy offline|llm] [--out DIR]",
             "run the suite's levels under each memory arm (off, dump, active; :local, :foreign\nor :both devices' "
             "memory), each arm in a workspace of its own, and write\nstudy.json, study.md and plots to DIR"}};
  }

  void add_options(CLI::App& app) override {
    add_value(app, "--policy", [this](const std::string& v) {
      if (v != "offline" && v != "llm") throw UsageError("policy \"" + v + "\" is not available (policies: offline, llm)");
      r_.policy.policy = v;
    }, "NAME", "offline (default: the shipped kernels, no network) or llm (a language model)");
    add_value(app, "--kernels", [this](const std::string& v) { r_.policy.kernels = v; }, "DIR",
              "offline: propose DIR/<task>/*.cpp instead of the shipped kernels");
    add_value(app, "--arms", [this](const std::string& v) {
      try {
        arms_ = study::parse_arms(v);
      } catch (const Error& e) {
        throw UsageError("--arms: " + std::string(e.what()));
      }
    }, "LIST", "memory arms, e.g. off,dump,active,active:foreign,active:both (default off,active)");
    add_value(app, "--levels", [this](const std::string& v) { r_.suite.levels = v; }, "L", "the levels to study: 1,2,3,4 or all (default 1,2)");
    add_value(app, "--out", [this](const std::string& v) { out_ = v; }, "DIR",
              "where the arms' workspaces and the report go (default WORKSPACE/studies/<UTC time>)");
    add_value(app, "--seed-memory", [this](const std::string& v) { seed_ = v; }, "FILE",
              "a `kope memory export` file imported into every arm first (foreign memory for :foreign arms)");
    add_device_option(app, r_.device, "where kernels run (default cpu)");
    add_suite_option(app, r_.suite);
    add_json_option(app, r_.json);
    add_loop_options(app, r_.loop);
    add_eval_options(app, r_.loop.eval);
    llm_only_ = add_llm_options(app, r_.policy);
  }

  int run(const Invocation& inv) override {
    if (inv.app.count("--memory")) throw UsageError("--memory is chosen per arm in a study: use --arms");
    if (inv.app.count("--device-memory")) throw UsageError("--device-memory is chosen per arm in a study: use --arms ARM:WHICH");
    if (r_.policy.policy != "llm")
      for (const auto& name : llm_only_)
        if (inv.app.count(name)) throw UsageError(name + " applies to --policy llm only");
    if (r_.policy.policy == "llm" && inv.app.count("--kernels")) throw UsageError("--kernels applies to --policy offline only");
    const device::DevicePool pool = require_pool(r_.device);
    std::vector<int> levels;
    try {
      levels = parse_levels(r_.suite.levels.value_or("1,2"));
    } catch (const Error& e) {
      throw UsageError("--levels: " + std::string(e.what()));
    }
    Suite suite = r_.suite.load();
    if (levels.empty()) levels = suite.levels();
    study::StudyOptions o;
    o.levels = levels;
    o.tasks = r_.loop.tasks;
    o.arms = arms_.empty() ? study::parse_arms("off,active") : arms_;
    o.policy = r_.policy;
    o.policy.device = pool.specs.front();
    if (o.policy.policy == "llm") agent::check_policy_choice(o.policy);
    o.loop = r_.loop;
    apply_pool(pool, o.loop);
    o.dir = out_ ? fs::absolute(*out_) : default_study_dir(inv);
    o.seed_memory = seed_;
    o.command = inv.command_line();
    o.loop.control = std::make_shared<loop::RunControl>();
    o.loop.eval.cancel = o.loop.control->cancel_token();
    o.policy.cancel = o.loop.control->cancel_token();
    loop::SignalSteering signals(*o.loop.control);
    std::ostream& err = inv.err;
    o.loop.eval_progress = [&err](const std::string& task, const EvalProgress& p) { print_goldens(task, p, err); };
    const study::StudyReport report = study::run_study(suite, o, [&err](const study::StudyEvent& e) {
      if (!e.loop) err << "== arm " << e.arm << ", level " << e.level << "\n";
      else print_attempt(*e.loop, err);
    });
    study::write_study(report, o.dir);
    if (r_.json) {
      nlohmann::json j = study::to_json(report);
      j["dir"] = o.dir.string();
      inv.out << j.dump(2) << "\n";
    } else {
      print_rows(report, inv.out);
      inv.out << "\nstudy " << (report.stopped ? "stopped; what ran is " : "") << "written to " << o.dir.string()
              << " (study.md, study.json, pass_rate.svg, speedup.svg)\n";
    }
    return report.stopped ? 130 : kExitOk;
  }

 private:
  RunRequest r_;
  std::vector<study::Arm> arms_;
  std::optional<fs::path> out_, seed_;
  std::vector<std::string> llm_only_;
};

}  // namespace

std::unique_ptr<Command> study_command() { return std::make_unique<StudyCommand>(); }

}  // namespace kope::cli
