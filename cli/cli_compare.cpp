// `kope compare A B [--json]`: two recorded evaluations per case, as the window's comparison shows them.
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/eval/compare.h"
#include "kope/base/error.h"
#include "kope/base/format.h"
#include "kope/model/report_io.h"
#include "kope/workspace/workspace.h"

namespace kope {

namespace {

int64_t evaluation_id(const std::string& s) {
  try {
    std::size_t used = 0;
    const long long id = std::stoll(s, &used);
    if (used == s.size() && id > 0) return id;
  } catch (const std::exception&) {
  }
  throw Error("evaluation id must be a positive number, got \"" + s + "\"");
}

EvalReport load(const Workspace& ws, int64_t id) {
  auto row = ws.evaluation(id);
  if (!row) throw Error("no evaluation " + std::to_string(id) + " in workspace " + ws.dir().string());
  nlohmann::json j = nlohmann::json::parse(row->report, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw Error("evaluation " + std::to_string(id) + " has no stored report (status " + row->status + ")");
  return report_from_json(j);
}

}  // namespace

int cmd_compare(const std::vector<std::string>& positional, bool json, const std::filesystem::path& workspace,
                std::ostream& out) {
  if (positional.size() != 3) throw Error("usage: kope compare EVALUATION_A EVALUATION_B [--json]");
  const int64_t a = evaluation_id(positional[1]), b = evaluation_id(positional[2]);
  Workspace ws = Workspace::open(workspace);
  Comparison c = compare_reports(load(ws, a), load(ws, b));
  c.a_evaluation = a;
  c.b_evaluation = b;
  if (json) {
    out << c.to_json().dump(2) << "\n";
    return kExitOk;
  }
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
  return kExitOk;
}

}  // namespace kope
