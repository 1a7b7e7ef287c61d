// `kope compare A B [--json]`: two recorded evaluations per case, as the window's comparison shows them.
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/format.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/eval/compare.h"
#include "kope/model/report.h"
#include "kope/workspace/workspace.h"

using namespace kope::eval;
using namespace kope::workspace;

namespace kope::cli {

namespace {

EvalReport load(const Workspace& ws, int64_t id) {
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in workspace " + ws.dir().string());
  nlohmann::json j = nlohmann::json::parse(row->report, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw Error("evaluation " + std::to_string(id) + " has no stored report (status " + row->status + ")");
  return report_from_json(j);
}

void print(const Comparison& c, int64_t a, int64_t b, std::ostream& out) {
  out << "A: evaluation " << a << "  " << c.a_task << "  " << c.a_kernel << "\n";
  out << "B: evaluation " << b << "  " << c.b_task << "  " << c.b_kernel << "\n";
  if (c.a_task != c.b_task) out << "note: the two evaluations are of different tasks\n";
  out << std::left << std::setw(16) << "case" << std::setw(16) << "A status" << std::setw(16) << "B status"
      << std::setw(12) << "A median" << std::setw(12) << "B median" << std::setw(10) << "B vs A" << "95% interval\n";
  for (const auto& r : c.cases)
    out << std::left << std::setw(16) << r.name << std::setw(16) << (r.in_a ? r.a_status : "-") << std::setw(16)
        << (r.in_b ? r.b_status : "-") << std::setw(12) << format::duration_ns(r.a_median_ns) << std::setw(12)
        << format::duration_ns(r.b_median_ns) << std::setw(10) << format::speedup(r.speedup)
        << format::interval(r.interval) << "\n";
  out << "B over A: " << format::speedup(c.speedup) << " (geometric mean over the cases both timed)\n";
}

class CompareCommand : public Command {
 public:
  std::string name() const override { return "compare"; }
  std::string description() const override {
    return "two evaluations per case: both medians, B's speedup over A with its\n95% interval, correctness";
  }
  std::vector<Synopsis> synopsis() const override { return {{"compare A B [--json]", description()}}; }

  void add_options(CLI::App& app) override {
    add_id(app, "EVALUATION_A", a_, "evaluation id", "the evaluation compared against (A)");
    add_id(app, "EVALUATION_B", b_, "evaluation id", "the evaluation whose speedup over A is shown (B)");
    add_json_option(app, json_);
  }

  int run(const Invocation& inv) override {
    if (!a_ || !b_) throw UsageError("usage: kope compare EVALUATION_A EVALUATION_B [--json]");
    Workspace ws = Workspace::open(inv.workspace_dir());
    Comparison c = compare_reports(load(ws, *a_), load(ws, *b_));
    c.a_evaluation = *a_;
    c.b_evaluation = *b_;
    if (json_) inv.out << c.to_json().dump(2) << "\n";
    else print(c, *a_, *b_, inv.out);
    return kExitOk;
  }

 private:
  std::optional<int64_t> a_, b_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> compare_command() { return std::make_unique<CompareCommand>(); }

}  // namespace kope::cli
