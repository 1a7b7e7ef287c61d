// `kope devices [--json] [--device SPEC]`: each device kind with its availability, capabilities and hardware
// fingerprint, present or not, and why not.
#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/cli/command.h"
#include "kope/cli/options.h"
#include "kope/device/device.h"

namespace kope::cli {

namespace {

using nlohmann::json;

// A device: throws kope::Error for an unknown kind or a malformed spec.
json device_json(const std::string& spec) {
  std::unique_ptr<device::Device> d = device::make_device(spec);
  const device::Availability a = d->availability();
  return {{"name", d->name()}, {"kind", d->kind()}, {"available", a.available}, {"reason", a.reason},
          {"capabilities", device::to_json(d->capabilities())}, {"fingerprint", device::to_json(d->fingerprint())}};
}

void print_device(const json& d, std::ostream& out) {
  const auto& c = d["capabilities"];
  const std::string what = !d["available"].get<bool>()  ? "absent"
                           : c["can_time"].get<bool>()  ? "build, run, time"
                           : c["can_run"].get<bool>()   ? "build, run (no timing)"
                           : c["can_build"].get<bool>() ? "build only"
                                                        : "present";
  out << std::left << std::setw(10) << d["name"].get<std::string>() << " " << std::setw(24) << what << " "
      << d["reason"].get<std::string>() << "\n";
  const auto& f = d["fingerprint"];
  if (d["available"].get<bool>() && !f["model"].get<std::string>().empty())
    out << std::setw(35) << "" << f["model"].get<std::string>()
        << (f["toolkit_version"].get<std::string>().empty() ? "" : ", " + f["toolkit_version"].get<std::string>())
        << "\n";
}

class DevicesCommand : public Command {
 public:
  std::string name() const override { return "devices"; }
  std::string description() const override {
    return "the devices present and why the others are not (SPEC: KIND or KIND@HOST)";
  }
  std::vector<Synopsis> synopsis() const override { return {{"devices [--json] [--device SPEC]", description()}}; }

  void add_options(CLI::App& app) override {
    add_device_option(app, spec_, "only this device (default: every kind)");
    add_json_option(app, json_);
  }

  int run(const Invocation& inv) override {
    const std::vector<std::string> specs = spec_ ? std::vector<std::string>{*spec_} : device::device_kinds();
    json all = json::array();
    for (const auto& s : specs) all.push_back(device_json(s));
    if (json_) inv.out << all.dump(2) << "\n";
    else
      for (const auto& d : all) print_device(d, inv.out);
    return kExitOk;
  }

 private:
  std::optional<std::string> spec_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> devices_command() { return std::make_unique<DevicesCommand>(); }

}  // namespace kope::cli
