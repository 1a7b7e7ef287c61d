// `kope report`: per task the incumbent's speedups (all cases, memory-bound cases) and CANN Bench score; per
// suite the score, pass rate and fast_1.
#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/common.h"
#include "kope/cli/options.h"

using namespace kope::workspace;
using namespace kope::eval;

namespace kope::cli {

namespace {

class ReportCommand : public Command {
 public:
  std::string name() const override { return "report"; }
  std::string description() const override {
    return "per task the incumbent's speedups (all cases, memory-bound cases) and\nCANN Bench score; per suite "
           "the score, pass rate and fast_1";
  }
  std::vector<Synopsis> synopsis() const override { return {{"report [--level 1,2] [--json]", description()}}; }

  void add_options(CLI::App& app) override {
    add_suite_option(app, suite_);
    add_level_option(app, suite_, "only the tasks of these levels");
    add_device_option(app, device_, "whose incumbents (default cpu)");
    add_json_option(app, json_);
  }

  int run(const Invocation& inv) override {
    const Suite suite = suite_.load_at_levels("all");
    Workspace ws = Workspace::open(inv.workspace_dir());
    std::vector<std::string> names;
    for (const Task& t : suite.tasks()) names.push_back(t.name);
    const SuiteSummary s = incumbent_summary(ws, suite, names, device_.value_or("cpu"));
    if (json_) inv.out << to_json(s).dump(2) << "\n";
    else print_suite_summary(s, inv.out);
    return kExitOk;
  }

 private:
  SuiteChoice suite_;
  std::optional<std::string> device_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> report_command() { return std::make_unique<ReportCommand>(); }

}  // namespace kope::cli
