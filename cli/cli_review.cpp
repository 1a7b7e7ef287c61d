// `kope review list|approve|reject`: the person's side of promotion on evidence. A kernel faster than the
// hardware floor allows waits here; approving it promotes it only if it still beats the incumbent by the
// loop's margin on the lower bound of its interval. Every decision is recorded with its note and time.
#include "kope/cli/cli_review.h"

#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/base/error.h"
#include "kope/loop/loop.h"
#include "kope/model/report_io.h"
#include "kope/model/stats.h"
#include "kope/base/text.h"
#include "kope/workspace/workspace.h"

namespace kope {

using nlohmann::json;

namespace {

int64_t evaluation_id(const std::vector<std::string>& positional, const std::string& usage) {
  if (positional.size() < 3) throw Error("usage: " + usage);
  const std::string& s = positional[2];
  try {
    std::size_t used = 0;
    const int64_t id = std::stoll(s, &used);
    if (used == s.size() && id > 0) return id;
  } catch (const std::exception&) {
  }
  throw Error("evaluation id must be a positive number, got \"" + s + "\"");
}

std::string fmt(double v) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << v << "x";
  return s.str();
}

int list(Workspace& ws, bool all, bool as_json, std::ostream& out) {
  const auto rows = ws.reviews(all ? std::nullopt : std::optional<std::string>("pending"), 1000);
  if (as_json) {
    json arr = json::array();
    for (const auto& r : rows) {
      json log = json::array();
      for (const auto& l : ws.review_log(r.id))
        log.push_back({{"decision", l.decision}, {"note", l.note}, {"promoted", l.promoted}, {"at", l.at}});
      arr.push_back({{"evaluation_id", r.id}, {"task", r.task}, {"device", r.device}, {"kernel", r.kernel_origin},
                     {"speedup", r.speedup ? json(*r.speedup) : json(nullptr)}, {"review", r.review},
                     {"note", r.review_note}, {"reviewed_at", r.reviewed_at}, {"log", log}});
    }
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
        << (r.speedup ? fmt(*r.speedup) : "-") << r.kernel_origin << "\n";
    if (!log.empty()) out << "       flagged: " << log.front().note << "\n";
    if (r.review != "pending") out << "       " << r.review << " " << r.reviewed_at << ": " << r.review_note << "\n";
  }
  return kExitOk;
}

}  // namespace

int run_review_cli(const std::vector<std::string>& positional, const std::optional<std::string>& note, bool all,
                   bool as_json, const std::filesystem::path& workspace, std::ostream& out) {
  const std::string sub = positional.size() >= 2 ? positional[1] : "";
  if (sub != "list" && sub != "approve" && sub != "reject")
    throw Error("usage: kope review list [--all] | approve EVAL_ID [--note TEXT] | reject EVAL_ID --note TEXT");
  if (sub == "list") {
    Workspace ws = Workspace::open(workspace);
    return list(ws, all, as_json, out);
  }
  const int64_t id = evaluation_id(positional, "kope review " + sub + " EVAL_ID" +
                                                   (sub == "reject" ? " --note TEXT" : " [--note TEXT]"));
  if (sub == "reject" && (!note || note->find_first_not_of(" \t\n") == std::string::npos))
    throw Error("kope review reject needs --note TEXT saying why the kernel is refused");
  Workspace ws = Workspace::open(workspace);
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in workspace " + ws.dir().string());
  if (row->review != "pending")
    throw Error("evaluation " + std::to_string(id) + " is not awaiting review (" +
                (row->review.empty() ? std::string("it was never flagged") : "it was already " + row->review) + ")");
  json result = {{"evaluation_id", id}, {"task", row->task}, {"device", row->device}};
  if (sub == "reject") {
    ws.decide_review(id, false, *note, std::nullopt);
    result["review"] = "rejected";
    result["promoted"] = false;
    if (as_json) out << dump_json(result, 2) << "\n";
    else out << "evaluation " << id << " rejected; it will not be promoted\n";
    return kExitOk;
  }
  // Approved: the floor warning is accepted, the evidence rule still applies, against today's incumbent.
  const double min_gain = LoopOptions{}.min_gain;
  const auto inc = ws.incumbent(row->task, row->device);
  const double inc_speedup = inc ? inc->speedup : 1.0;
  // Like with like (issue 11): the stored report's figures against the incumbent's baseline.
  std::optional<SpeedupInterval> ci;
  bool promote = false;
  std::string baseline = "naive";
  if (row->correct.value_or(false)) {
    json j = json::parse(row->report, nullptr, false);
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
  if (promote) new_inc = Incumbent{row->task, row->device, row->kernel_id, id, *row->speedup, baseline};
  ws.decide_review(id, true, note.value_or(""), new_inc);
  result["review"] = "approved";
  result["promoted"] = promote;
  result["incumbent_speedup"] = inc_speedup;
  result["speedup_ci95"] = ci ? json::array({ci->low, ci->high}) : json(nullptr);
  if (as_json) {
    out << dump_json(result, 2) << "\n";
    return kExitOk;
  }
  out << "evaluation " << id << " approved";
  if (promote)
    out << " and promoted: it is now the incumbent of " << row->task << " on " << row->device << " (speedup "
        << fmt(*row->speedup) << ", 95% interval " << fmt(ci->low) << " .. " << fmt(ci->high) << ")\n";
  else if (!ci)
    out << "; not promoted: it was not correct or has no timing samples to bound its speedup\n";
  else
    out << "; not promoted: the lower bound of its interval, " << fmt(ci->low) << ", does not beat the incumbent's "
        << fmt(inc_speedup) << " by the margin " << min_gain << "\n";
  return kExitOk;
}

}  // namespace kope
