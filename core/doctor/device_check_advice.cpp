// The words of `kope doctor --device`: verdicts from what the device and the evaluator answered, what to do per
// device kind and route, and the report's JSON. The advice names the settings kope reads (README, Devices).
#include <algorithm>
#include <cstdio>

#include "device_check_internal.h"
#include "kope/base/error.h"

namespace kope::doctor {

using nlohmann::json;

namespace detail {

namespace {

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string time_text(double ns) { return ns >= 1e6 ? fmt("%.3g ms", ns / 1e6) : fmt("%.3g us", ns / 1e3); }

std::string last_lines(const std::string& s, std::size_t n) {
  std::string t = s.size() > n ? "..." + s.substr(s.size() - n) : s;
  while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
  return t;
}

}  // namespace

std::string seconds_text(double s) { return fmt("%.2f s", s); }

std::string fingerprint_text(const device::Fingerprint& f, const device::Capabilities& c) {
  std::string s = f.model.empty() ? "no hardware model reported" : f.model;
  if (f.count > 0) s += "; " + std::to_string(f.count) + " on host " + (f.host.empty() ? "?" : f.host);
  if (!f.toolkit_version.empty()) s += "; " + f.toolkit_version;
  if (!f.driver_version.empty()) s += "; " + f.driver_version;
  for (const auto& [k, v] : f.extra) s += "; " + k + " " + v;
  s += std::string("; can build: ") + (c.can_build ? "yes" : "no") + ", run: " + (c.can_run ? "yes" : "no") +
       ", time: " + (c.can_time ? "yes" : "no") + ", profile: " + (c.profiler ? "yes" : "no");
  return s;
}

std::string build_failure_text(const BuildResult& b) {
  std::string s = b.error.empty() ? "the build failed" : b.error;
  int shown = 0;
  for (const auto& d : b.diagnostics)
    if ((d.severity == "error" || d.severity == "fatal error") && shown++ < 3)
      s += "\n" + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
  if (shown == 0 && !b.log.empty()) s += "\n" + last_lines(b.log, 600);
  return s;
}

std::string profile_text(const device::ProfileResult& p) {
  std::string s = p.tool + ": " + std::to_string(p.counters.size()) + " counters", shown;
  int n = 0;
  for (const device::Counter& c : p.counters) {  // the first few that are figures, not a table's row labels
    if (c.name.find("block_id") != std::string::npos || n == 4) continue;
    shown += (n++ ? ", " : "") + c.name + " " + fmt("%g", c.value) + (c.unit.empty() ? "" : " " + c.unit);
  }
  return shown.empty() ? s : s + " (" + shown + (p.counters.size() > 4 ? ", ...)" : ")");
}

DeviceStep run_verdict(const EvalReport& rep, const ConcreteCase& kc, const std::string& route, const std::string& kind) {
  const std::string todo =
      "the kernel is the shipped correct one: suspect the toolchain, the launch or the worker; run `kope eval` on "
      "this device with KOPE_TRACE_EVAL=1 and read the case log" +
      std::string(kind == "ascend" && route == "direct" ? "; compare with the cpu-twin route's run" : "");
  if (!rep.compiled) return {"run", route, StepState::Fails, "the evaluator's build failed: " + rep.compile.error, todo};
  if (rep.cases.empty()) {
    std::string errors;
    for (const auto& e : rep.errors) errors += (errors.empty() ? "" : "; ") + e;
    return {"run", route, StepState::Fails, errors.empty() ? "no case ran" : errors, todo};
  }
  const CaseResult& c = rep.cases.front();
  if (!c.correct())
    return {"run", route, StepState::Fails,
            "case " + c.name + ": " + std::string(case_status_name(c.status)) + ": " + c.message, todo};
  double max_rel = 0, threshold = 0;
  for (const auto& o : c.outputs) max_rel = std::max(max_rel, o.max_rel), threshold = std::max(threshold, o.threshold);
  int64_t n = 0;
  for (const auto& t : kc.inputs) n += t.numel;
  return {"run", route, StepState::Works,
          "correct against the fp64 golden on case " + c.name + " (" + std::to_string(n) + " input elements; largest "
              "relative error " + fmt("%.2g", max_rel) + ", threshold " + fmt("%.2g", threshold) + ")",
          ""};
}

DeviceStep time_verdict(const EvalReport& rep, const std::string& route, bool timed_against_itself) {
  if (rep.cases.empty() || !rep.cases.front().correct())
    return {"time", route, StepState::NotAvailable, "not timed: the run was not correct", ""};
  const CaseResult& c = rep.cases.front();
  if (!c.speedup || !c.kernel_median_ns || !c.baseline_median_ns) {
    std::string why = !c.message.empty() ? c.message : "not timed: the device returned no times for this build";
    if (route == "cpu-twin") why = "not timed: the CPU twin gives functional results only, no times";
    return {"time", route, StepState::NotAvailable, why, ""};
  }
  std::string s = "kernel " + time_text(*c.kernel_median_ns) + ", baseline " + time_text(*c.baseline_median_ns) +
                  " (medians of " + std::to_string(c.kernel_ns.size()) + " timed calls each): speedup " +
                  fmt("%.2fx", *c.speedup);
  if (timed_against_itself)
    s += " against itself (no baseline of this device ships for " + rep.task + "): near 1.0 says the timer is "
         "steady, nothing about the kernel";
  else
    s += " against the " + c.baseline + " baseline";
  return {"time", route, StepState::Works, s, ""};
}

std::string availability_todo(const std::string& kind, const std::string& spec) {
  if (spec.find('@') != std::string::npos)
    return "check that `ssh` reaches the host without a password (kope runs it in BatchMode; KOPE_SSH_OPTIONS adds "
           "options) and that the device is set up there: run `kope doctor --device " + kind + "` on that host";
  if (kind == "ascend")
    return "install the CANN toolkit and `source /usr/local/Ascend/ascend-toolkit/set_env.sh` (or set "
           "ASCEND_HOME_PATH) before starting kope";
  if (kind == "cuda") return "install the CUDA toolkit (nvcc), or set KOPE_NVCC to the nvcc to use";
  return "install a C++ compiler (g++ or clang++), or set CXX";
}

std::string route_todo(const std::string& kind, const std::string& route) {
  if (kind == "ascend" && route == "msopgen") return "msopgen comes with the CANN toolkit (tools/msopgen/bin): reinstall the toolkit with it";
  if (kind == "ascend" && route == "cpu-twin")
    return "the CPU twin needs tools/tikicpulib in the toolkit (a full CANN toolkit install has it)";
  return "this device's toolkit lacks the route";
}

std::string build_todo(const std::string& kind, const std::string& route) {
  if (kind == "ascend" && route == "direct")
    return "read bisheng's error above; --npu-arch follows the SoC (KOPE_ASCEND_SOC, KOPE_ASCEND_NPU_ARCH override "
           "it), and set_env.sh must have been sourced";
  if (kind == "ascend" && route == "msopgen")
    return "read msopgen's or build.sh's output above (ASCEND_CANN_PACKAGE_PATH, CMake, the SoC in -c ai_core-SOC)";
  if (kind == "ascend" && route == "cpu-twin") return "read the twin's CMake output above (tikicpulib, the host compiler)";
  if (kind == "cuda") return "read nvcc's error above; KOPE_CUDA_ARCH chooses the architecture, KOPE_NVCC the compiler";
  return "read the compiler's error above; CXX chooses the compiler";
}

std::string run_todo(const std::string& kind, const std::string& route, const std::string& why) {
  const bool no_hw = why.find("no GPU") != std::string::npos || why.find("no NPU") != std::string::npos;
  if (kind == "cuda" && no_hw) return "run on a machine with an NVIDIA GPU and its driver (nvidia-smi must list it)";
  if (kind == "ascend" && no_hw)
    return "run on a host with an Ascend board and its driver (`npu-smi info` must list a healthy chip); the "
           "cpu-twin route checks the kernel's logic without one";
  if (kind == "ascend" && route == "msopgen")
    return "kope builds operator projects but does not run them yet: the direct route is what `kope eval` runs";
  return "read the error above; `kope eval` on this device stops the same way";
}

std::string profile_todo(const std::string& kind, const device::Capabilities& c, const std::string& why) {
  std::string todo;
  if (kind == "cuda" && why.find("ncu") != std::string::npos) todo = "install Nsight Compute (ncu) with the CUDA toolkit";
  if (kind == "ascend" && why.find("msprof is not installed") != std::string::npos)
    todo = "msprof comes with the CANN toolkit (bin/msprof)";
  const bool no_hardware = why.find("no NPU") != std::string::npos || why.find("no GPU") != std::string::npos;
  if (no_hardware || (kind == "cuda" && !c.can_run))
    todo += (todo.empty() ? "" : "; ") + std::string("the profiler needs the hardware (see the run line)");
  return todo;
}

}  // namespace detail

std::string_view step_state_name(StepState s) {
  switch (s) {
    case StepState::Works: return "works";
    case StepState::Fails: return "fails";
    case StepState::NotAvailable: return "not available";
    case StepState::Info: return "info";
  }
  return "info";
}

std::optional<StepState> step_state_from_name(std::string_view name) {
  for (StepState s : {StepState::Works, StepState::Fails, StepState::NotAvailable, StepState::Info})
    if (step_state_name(s) == name) return s;
  return std::nullopt;
}

bool DeviceCheckReport::can_build() const {
  return std::any_of(steps.begin(), steps.end(),
                     [](const DeviceStep& s) { return s.step == "build" && s.state == StepState::Works; });
}

std::vector<const DeviceStep*> DeviceCheckReport::in_state(StepState st) const {
  std::vector<const DeviceStep*> out;
  for (const auto& s : steps)
    if (s.state == st) out.push_back(&s);
  return out;
}

json to_json(const DeviceCheckReport& r) {
  json steps = json::array();
  for (const auto& s : r.steps)
    steps.push_back({{"step", s.step}, {"route", s.route}, {"state", std::string(step_state_name(s.state))}, {"found", s.found},
                     {"todo", s.todo}});
  return {{"device", r.device},   {"name", r.name},           {"kind", r.kind},
          {"task", r.task},       {"kernel", r.kernel},       {"case", r.case_name},
          {"available", r.available}, {"can_build", r.can_build()}, {"fingerprint", r.fingerprint},
          {"capabilities", r.capabilities}, {"steps", steps}};
}

}  // namespace kope::doctor
