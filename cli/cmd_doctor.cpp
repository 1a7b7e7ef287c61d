// `kope doctor [--json]`: what this machine gives kope, each check with a verdict and what to do, then why
// verdicts here are trustworthy or weakened. `kope doctor --device SPEC`: what a device gives kope, a tiny kernel
// through each build route, run, timed and profiled (kope/doctor/device_check.h).
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/base/text.h"
#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/device/device.h"
#include "kope/doctor/device_check.h"
#include "kope/doctor/doctor.h"
#include "kope/workspace/workspace.h"

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

// `found` with its second and later lines indented under the first.
std::string indented(const std::string& text, int width) {
  std::string out;
  for (char ch : text) out += ch == '\n' ? "\n" + std::string(width, ' ') : std::string(1, ch);
  return out;
}

// A line per step (its state, the step, the route, what was found), what to do under it, then the summary.
void print_device_check(const DeviceCheckReport& r, std::ostream& out) {
  out << "kope doctor --device " << r.device << ": what this device gives kope";
  if (!r.kernel.empty()) out << ", with " << r.kernel << " on case " << r.case_name;
  out << "\n\n";
  constexpr int kWidth = 2 + 16 + 13 + 15;
  for (const auto& s : r.steps) {
    out << "  " << std::left << std::setw(16) << ("[" + std::string(step_state_name(s.state)) + "]") << std::setw(13)
        << s.step << std::setw(15) << s.route << indented(s.found, kWidth) << "\n";
    if (!s.todo.empty()) out << std::string(kWidth, ' ') << "to do: " << s.todo << "\n";
  }
  out << "\nsummary\n";
  for (StepState st : {StepState::Works, StepState::Fails, StepState::NotAvailable}) {
    std::string names;
    for (const DeviceStep* s : r.in_state(st)) names += (names.empty() ? "" : ", ") + s->step + (s->route.empty() ? "" : " " + s->route);
    out << "  " << std::setw(15) << (std::string(step_state_name(st)) + ":") << (names.empty() ? "(none)" : names) << "\n";
  }
  if (!r.can_build()) out << "no kernel can be built for " << r.device << " here: see the lines marked above\n";
}

class DoctorCommand : public Command {
 public:
  std::string name() const override { return "doctor"; }
  std::string description() const override {
    return "what this machine gives kope (compiler, library baseline, sandbox, caches,\ntimer, CPU frequency, "
           "isolation, SMT, load, devices): a verdict and what to\ndo per check, then why verdicts here are "
           "trustworthy or weakened; exit 4\nwhen no kernel can be built here";
  }
  std::vector<Synopsis> synopsis() const override {
    return {{"doctor [--json]", description()},
            {"doctor --device cpu|cuda|ascend|KIND@HOST [--json]",
             "a first-contact check of a device: a tiny shipped kernel built with every\nbuild route, run against "
             "the golden, timed against its baseline and\nprofiled; what works, what does not and what to do; exit "
             "4 when no route\nbuilds"}};
  }

  void add_options(CLI::App& app) override {
    add_json_option(app, json_);
    add_device_option(app, device_, "check this device instead of the machine");
  }

  int run(const Invocation& inv) override {
    if (device_) return run_device(inv);
    const DoctorReport r = run_doctor();
    if (json_) inv.out << dump_json(to_json(r), 2) << "\n";
    else print_doctor(r, inv.out);
    if (r.verdicts_possible()) return kExitOk;
    inv.err << "kope: doctor: this machine cannot build kernels (see the compiler line)\n";
    return kExitEnvironment;
  }

 private:
  int run_device(const Invocation& inv) {
    try {
      device::make_device(*device_);  // a malformed spec or an unknown kind is bad input, said before any work
    } catch (const EnvError&) {
      throw;
    } catch (const Error& e) {
      throw UsageError("--device " + *device_ + ": " + e.what());
    }
    DeviceCheckOptions o;
    o.device = *device_;
    o.paths = exec::EvalPaths::under(workspace::Workspace::open(inv.workspace_dir()).dir());
    const DeviceCheckReport r = check_device(o);
    if (json_) inv.out << dump_json(to_json(r), 2) << "\n";
    else print_device_check(r, inv.out);
    if (r.can_build()) return kExitOk;
    inv.err << "kope: doctor: no kernel can be built for " << r.device << " here (see the availability and build lines)\n";
    return kExitEnvironment;
  }

  std::optional<std::string> device_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> doctor_command() { return std::make_unique<DoctorCommand>(); }

}  // namespace kope::cli
