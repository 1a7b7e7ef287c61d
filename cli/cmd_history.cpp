// `kope history` (recorded evaluations, newest first) and `kope show EVALUATION_ID` (one stored report).
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/format.h"
#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/workspace/workspace.h"

using namespace kope::workspace;

namespace kope::cli {

namespace {

using nlohmann::json;

json row_json(const EvaluationRow& r) {
  return {{"id", r.id}, {"run_id", r.run_id}, {"task", r.task}, {"device", r.device}, {"status", r.status},
          {"compiled", r.compiled ? json(*r.compiled) : json(nullptr)},
          {"correct", r.correct ? json(*r.correct) : json(nullptr)},
          {"speedup", r.speedup ? json(*r.speedup) : json(nullptr)}, {"kernel", r.kernel_origin},
          {"kernel_sha256", r.kernel_sha256}, {"started_at", r.started_at}, {"finished_at", r.finished_at},
          {"prev_evaluation_id", r.prev_evaluation_id ? json(*r.prev_evaluation_id) : json(nullptr)}};
}

class HistoryCommand : public Command {
 public:
  std::string name() const override { return "history"; }
  std::string description() const override { return "recorded evaluations, newest first"; }
  std::vector<Synopsis> synopsis() const override {
    return {{"history [--task TASK] [--limit N]", description()}};
  }

  void add_options(CLI::App& app) override {
    add_text(app, "--task", task_, "TASK", "only this task's evaluations");
    add_limit_option(app, limit_, "at most N evaluations");
    add_json_option(app, json_);
  }

  int run(const Invocation& inv) override {
    Workspace ws = Workspace::open(inv.workspace_dir());
    const auto rows = ws.evaluations(task_, limit_);
    std::ostream& out = inv.out;
    if (json_) {
      json arr = json::array();
      for (const auto& r : rows) arr.push_back(row_json(r));
      out << dump_json(arr, 2) << "\n";
      return kExitOk;
    }
    out << std::left << std::setw(7) << "id" << std::setw(26) << "task" << std::setw(16) << "status" << std::setw(10)
        << "speedup" << std::setw(26) << "started" << "kernel\n";
    for (const auto& r : rows)
      out << std::left << std::setw(7) << r.id << std::setw(26) << r.task << std::setw(16) << r.status
          << std::setw(10) << format::speedup(r.speedup) << std::setw(26) << r.started_at << r.kernel_origin << "\n";
    return kExitOk;
  }

 private:
  std::optional<std::string> task_;
  int limit_ = 20;
  bool json_ = false;
};

class ShowCommand : public Command {
 public:
  std::string name() const override { return "show"; }
  std::string description() const override { return "the full stored report of one evaluation, as JSON"; }
  std::vector<Synopsis> synopsis() const override { return {{"show EVALUATION_ID", "the full stored report of one evaluation"}}; }

  void add_options(CLI::App& app) override {
    add_id(app, "EVALUATION_ID", id_, "evaluation id", "the evaluation (kope history lists them)");
    add_json_option(app, json_);  // the report is JSON either way; accepted so scripts may say so
  }

  int run(const Invocation& inv) override {
    if (!id_) throw UsageError("usage: kope show EVALUATION_ID");
    Workspace ws = Workspace::open(inv.workspace_dir());
    auto row = ws.evaluation(*id_);
    if (!row) throw Error("no evaluation " + std::to_string(*id_) + " in workspace " + ws.dir().string());
    json j = json::parse(row->report, nullptr, false);
    if (j.is_discarded()) j = {{"status", row->status}, {"error", row->report}};
    j["evaluation_id"] = row->id;
    j["recorded_status"] = row->status;
    if (!row->review.empty())
      j["review"] = {{"state", row->review}, {"note", row->review_note}, {"at", row->reviewed_at}};
    inv.out << dump_json(j, 2) << "\n";
    return kExitOk;
  }

 private:
  std::optional<int64_t> id_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> history_command() { return std::make_unique<HistoryCommand>(); }
std::unique_ptr<Command> show_command() { return std::make_unique<ShowCommand>(); }

}  // namespace kope::cli
