// The words of `kope doctor --device`: each step's verdict from what the device and the evaluator answered, and
// what to do about it, per device kind and build route (device_check_advice.cpp).
#pragma once

#include <string>

#include "kope/doctor/device_check.h"
#include "kope/model/report.h"

namespace kope::doctor::detail {

std::string seconds_text(double s);  // "0.41 s"
std::string fingerprint_text(const device::Fingerprint& f, const device::Capabilities& c);
// The build's one-line error, then its error diagnostics and the tool's last lines.
std::string build_failure_text(const BuildResult& b);
std::string profile_text(const device::ProfileResult& p);

DeviceStep run_verdict(const EvalReport& rep, const ConcreteCase& c, const std::string& route, const std::string& kind);
DeviceStep time_verdict(const EvalReport& rep, const std::string& route, bool timed_against_itself);

std::string availability_todo(const std::string& kind, const std::string& spec);
std::string route_todo(const std::string& kind, const std::string& route);  // a route the toolkit lacks
std::string build_todo(const std::string& kind, const std::string& route);
std::string run_todo(const std::string& kind, const std::string& route, const std::string& why);
std::string profile_todo(const std::string& kind, const device::Capabilities& c, const std::string& why);

}  // namespace kope::doctor::detail
