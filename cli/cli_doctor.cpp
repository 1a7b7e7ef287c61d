// `kope doctor`: prints the doctor's report as text (a line per check, what to do under it, the summary) or JSON.
#include "kope/cli/cli_doctor.h"

#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/base/text.h"

namespace kope {

void print_doctor(const DoctorReport& r, std::ostream& out) {
  out << "kope doctor: what this machine gives kope\n";
  std::string area;
  for (const auto& c : r.checks) {
    if (c.area != area) {
      area = c.area;
      out << "\n" << area << "\n";
    }
    out << "  " << std::left << std::setw(7) << ("[" + std::string(verdict_name(c.verdict)) + "]") << std::setw(30)
        << c.title << c.found << "\n";
    if (c.verdict != Verdict::Ok && !c.todo.empty()) out << std::setw(39) << "" << "to do: " << c.todo << "\n";
  }
  out << "\nverdicts on this machine are trustworthy because:\n";
  if (r.trustworthy_because.empty()) out << "  (nothing checked is as kope wants it)\n";
  for (const auto& s : r.trustworthy_because) out << "  - " << s << "\n";
  out << "verdicts on this machine are weakened because:\n";
  if (r.weakened_because.empty()) out << "  (nothing found)\n";
  for (const auto& s : r.weakened_because) out << "  - " << s << "\n";
  if (!r.verdicts_possible()) out << "kope cannot give verdicts here until the failed checks marked above are fixed\n";
}

int cli_doctor(bool as_json, std::ostream& out, std::ostream& err) {
  const DoctorReport r = run_doctor();
  if (as_json) out << dump_json(to_json(r), 2) << "\n";
  else print_doctor(r, out);
  if (r.verdicts_possible()) return kExitOk;
  err << "kope: doctor: this machine cannot build kernels (see the compiler line)\n";
  return kExitEnvironment;
}

}  // namespace kope
