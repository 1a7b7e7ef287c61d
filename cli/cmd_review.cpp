// `kope review list|approve|reject`: the person's side of promotion on evidence. A kernel faster than the
// hardware floor allows waits here; approving it promotes it only if it still beats the incumbent by the
// loop's margin on the lower bound of its interval. Every decision is recorded with its note and time.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/loop/loop.h"
#include "kope/model/report.h"
#include "kope/model/stats.h"
#include "kope/workspace/workspace.h"
#include "kope/base/format.h"

using namespace kope::loop;
using namespace kope::workspace;

namespace kope::cli {

namespace {

using nlohmann::json;

json review_json(Workspace& ws, const EvaluationRow& r) {
  json log = json::array();
  for (const auto& l : ws.review_log(r.id))
    log.push_back({{"decision", l.decision}, {"note", l.note}, {"promoted", l.promoted}, {"at", l.at}});
  return {{"evaluation_id", r.id}, {"task", r.task}, {"device", r.device}, {"kernel", r.kernel_origin},
          {"speedup", r.speedup ? json(*r.speedup) : json(nullptr)}, {"review", r.review},
          {"note", r.review_note}, {"reviewed_at", r.reviewed_at}, {"log", log}};
}

int list(Workspace& ws, bool all, bool as_json, std::ostream& out) {
  const auto rows = ws.reviews(all ? std::nullopt : std::optional<std::string>("pending"), 1000);
  if (as_json) {
    json arr = json::array();
    for (const auto& r : rows) arr.push_back(review_json(ws, r));
    out << dump_json(arr, 2) << "\n";
    return kExitOk;
  }
  if (rows.empty()) {
    out << (all ? "no reviews\n" : "no kernels await review\n");
    return kExitOk;
  }
  out << std::left << std::setw(7) << "id" << std::setw(22) << "task" << std::setw(10) << "review" << std::setw(10)
      << "speedup" << "kernel / why\n";
  for (const auto& r : rows) {
    const auto log = ws.review_log(r.id);
    out << std::left << std::setw(7) << r.id << std::setw(22) << r.task << std::setw(10) << r.review << std::setw(10)
        << (r.speedup ? format::speedup(*r.speedup) : "-") << r.kernel_origin << "\n";
    if (!log.empty()) out << "       flagged: " << log.front().note << "\n";
    if (r.review != "pending") out << "       " << r.review << " " << r.reviewed_at << ": " << r.review_note << "\n";
  }
  return kExitOk;
}

// The evaluation awaiting review, or a kope::Error saying why it is not.
EvaluationRow pending(Workspace& ws, int64_t id) {
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in workspace " + ws.dir().string());
  if (row->review != "pending")
    throw Error("evaluation " + std::to_string(id) + " is not awaiting review (" +
                (row->review.empty() ? std::string("it was never flagged") : "it was already " + row->review) + ")");
  return *row;
}

// Approved: the floor warning is accepted, the evidence rule still applies, against today's incumbent, like with
// like (issue 11): the stored report's figures against the incumbent's baseline.
int approve(Workspace& ws, const EvaluationRow& row, const std::string& note, bool as_json, std::ostream& out) {
  const double min_gain = LoopOptions{}.min_gain;
  const auto inc = ws.incumbent(row.task, row.device);
  const double inc_speedup = inc ? inc->speedup : 1.0;
  std::optional<SpeedupInterval> ci;
  bool promote = false;
  std::string baseline = "naive";
  if (row.correct.value_or(false)) {
    json j = json::parse(row.report, nullptr, false);
    if (!j.is_discarded() && j.is_object()) {
      const EvalReport rep = report_from_json(j);
      const Promotion pr = decide_promotion(rep, inc_speedup, min_gain, /*approved=*/true,
                                            inc ? inc->baseline : std::string("naive"));
      ci = pr.interval;
      promote = pr.promote && pr.speedup;
      baseline = rep.baseline();
    }
  }
  std::optional<Incumbent> new_inc;
  if (promote) new_inc = Incumbent{row.task, row.device, row.kernel_id, row.id, *row.speedup, baseline};
  ws.decide_review(row.id, true, note, new_inc);
  if (as_json) {
    out << dump_json(json{{"evaluation_id", row.id}, {"task", row.task}, {"device", row.device},
                          {"review", "approved"}, {"promoted", promote}, {"incumbent_speedup", inc_speedup},
                          {"speedup_ci95", ci ? json::array({ci->low, ci->high}) : json(nullptr)}}, 2) << "\n";
    return kExitOk;
  }
  out << "evaluation " << row.id << " approved";
  if (promote)
    out << " and promoted: it is now the incumbent of " << row.task << " on " << row.device << " (speedup "
        << format::speedup(*row.speedup) << ", 95% interval " << format::speedup(ci->low) << " .. " << format::speedup(ci->high) << ")\n";
  else if (!ci)
    out << "; not promoted: it was not correct or has no timing samples to bound its speedup\n";
  else
    out << "; not promoted: the lower bound of its interval, " << format::speedup(ci->low) << ", does not beat the incumbent's "
        << format::speedup(inc_speedup) << " by the margin " << min_gain << "\n";
  return kExitOk;
}

class ReviewCommand : public Command {
 public:
  std::string name() const override { return "review"; }
  std::string description() const override {
    return "kernels waiting for a person: faster than the hardware floor allows";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"review list [--all] [--json]", "kernels waiting for a person: faster than the hardware floor allows"},
            {"review approve EVAL_ID [--note TEXT]",
             "accept one; it becomes the incumbent if it still beats the current one"},
            {"review reject EVAL_ID --note TEXT", "refuse one, saying why"}};
  }

  void add_options(CLI::App& app) override {
    app.require_subcommand(0, 1);
    list_ = app.add_subcommand("list", "kernels waiting for a person (--all: every review, decided ones too)");
    add_flag(*list_, "--all", all_, "decided reviews too");
    add_json_option(*list_, json_);
    approve_ = app.add_subcommand("approve", "accept one; it becomes the incumbent if it still beats the current one");
    reject_ = app.add_subcommand("reject", "refuse one, saying why");
    for (CLI::App* sub : {approve_, reject_}) {
      add_id(*sub, "EVAL_ID", id_, "evaluation id", "the evaluation awaiting review");
      add_text(*sub, "--note", note_, "TEXT", sub == reject_ ? "why it is refused (required)" : "why it is accepted");
      add_json_option(*sub, json_);
    }
  }

  int run(const Invocation& inv) override {
    if (list_->parsed()) {
      Workspace ws = Workspace::open(inv.workspace_dir());
      return list(ws, all_, json_, inv.out);
    }
    if (!approve_->parsed() && !reject_->parsed())
      throw UsageError("usage: kope review list [--all] | approve EVAL_ID [--note TEXT] | reject EVAL_ID --note TEXT");
    const bool rejecting = reject_->parsed();
    if (!id_)
      throw UsageError(rejecting ? "usage: kope review reject EVAL_ID --note TEXT"
                                 : "usage: kope review approve EVAL_ID [--note TEXT]");
    if (rejecting && (!note_ || note_->find_first_not_of(" \t\n") == std::string::npos))
      throw UsageError("kope review reject needs --note TEXT saying why the kernel is refused");
    Workspace ws = Workspace::open(inv.workspace_dir());
    const EvaluationRow row = pending(ws, *id_);
    if (!rejecting) return approve(ws, row, note_.value_or(""), json_, inv.out);
    ws.decide_review(row.id, false, *note_, std::nullopt);
    if (json_)
      inv.out << dump_json(json{{"evaluation_id", row.id}, {"task", row.task}, {"device", row.device},
                                {"review", "rejected"}, {"promoted", false}}, 2) << "\n";
    else
      inv.out << "evaluation " << row.id << " rejected; it will not be promoted\n";
    return kExitOk;
  }

 private:
  CLI::App *list_ = nullptr, *approve_ = nullptr, *reject_ = nullptr;
  std::optional<int64_t> id_;
  std::optional<std::string> note_;
  bool all_ = false, json_ = false;
};

}  // namespace

std::unique_ptr<Command> review_command() { return std::make_unique<ReviewCommand>(); }

}  // namespace kope::cli
