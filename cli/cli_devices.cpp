// `kope devices`: lists each device kind with its availability, capabilities and hardware fingerprint.
#include "kope/cli/cli_devices.h"

#include <iomanip>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/device/device.h"
#include "kope/base/error.h"

namespace kope {

using nlohmann::json;

int cli_devices(const std::string& spec, bool as_json, std::ostream& out, std::ostream& err) {
  std::vector<std::string> specs = spec.empty() ? device::device_kinds() : std::vector<std::string>{spec};
  json all = json::array();
  for (const auto& s : specs) {
    std::unique_ptr<device::Device> d = device::make_device(s);  // throws kope::Error for an unknown kind
    device::Availability a = d->availability();
    device::Capabilities c = d->capabilities();
    device::Fingerprint f = d->fingerprint();
    all.push_back({{"name", d->name()}, {"kind", d->kind()}, {"available", a.available}, {"reason", a.reason},
                   {"capabilities", device::to_json(c)}, {"fingerprint", device::to_json(f)}});
  }
  if (as_json) {
    out << all.dump(2) << "\n";
    return kExitOk;
  }
  for (const auto& d : all) {
    const auto& c = d["capabilities"];
    std::string what = !d["available"].get<bool>()   ? "absent"
                       : c["can_time"].get<bool>()   ? "build, run, time"
                       : c["can_run"].get<bool>()    ? "build, run (no timing)"
                       : c["can_build"].get<bool>()  ? "build only"
                                                     : "present";
    out << std::left << std::setw(10) << d["name"].get<std::string>() << " " << std::setw(24) << what << " "
        << d["reason"].get<std::string>() << "\n";
    const auto& f = d["fingerprint"];
    if (d["available"].get<bool>() && !f["model"].get<std::string>().empty())
      out << std::setw(35) << "" << f["model"].get<std::string>()
          << (f["toolkit_version"].get<std::string>().empty() ? "" : ", " + f["toolkit_version"].get<std::string>()) << "\n";
  }
  (void)err;
  return kExitOk;
}

}  // namespace kope
