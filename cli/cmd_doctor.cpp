// `kope doctor [--json]`: what this machine gives kope, each check with a verdict and what to do, then why
// verdicts here are trustworthy or weakened.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/doctor/doctor.h"

using namespace kope::doctor;

namespace kope::cli {

namespace {

// A line per check with its verdict, what to do under it, then the summary.
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

class DoctorCommand : public Command {
 public:
  std::string name() const override { return "doctor"; }
  std::string description() const override {
    return "what this machine gives kope (compiler, library baseline, sandbox, caches,\ntimer, CPU frequency, "
           "isolation, SMT, load, devices): a verdict and what to\ndo per check, then why verdicts here are "
           "trustworthy or weakened; exit 4\nwhen no kernel can be built here";
  }
  std::vector<Synopsis> synopsis() const override { return {{"doctor [--json]", description()}}; }

  void add_options(CLI::App& app) override { add_json_option(app, json_); }

  int run(const Invocation& inv) override {
    const DoctorReport r = run_doctor();
    if (json_) inv.out << dump_json(to_json(r), 2) << "\n";
    else print_doctor(r, inv.out);
    if (r.verdicts_possible()) return kExitOk;
    inv.err << "kope: doctor: this machine cannot build kernels (see the compiler line)\n";
    return kExitEnvironment;
  }

 private:
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace kope::cli
