// The device registry and what every device shares: outcome names, JSON forms, tool look-up, per-device
// baselines and prompt templates.
#include "kope/device/device.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "kope/device/cpu.h"
#include "kope/device/cuda.h"
#include "kope/device/ascend.h"
#include "kope/device/remote.h"
#include "kope/device/slurm.h"
#include "kope/model/dtype.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::pair<Outcome, std::string_view> kOutcomeNames[] = {
    {Outcome::Ok, "ok"},
    {Outcome::KernelError, "kernel_error"},
    {Outcome::Crash, "crash"},
    {Outcome::IllegalAddress, "illegal_address"},
    {Outcome::Timeout, "timeout"},
    {Outcome::OutOfMemory, "out_of_memory"},
    {Outcome::LoadError, "load_error"},
    {Outcome::LaunchError, "launch_error"},
    {Outcome::InputsModified, "inputs_modified"},
    {Outcome::ToolError, "tool_error"},
    {Outcome::BackgroundWork, "background_work"},
    {Outcome::Infrastructure, "infrastructure"},
};

struct Registry {
  std::mutex mu;
  std::map<std::string, DeviceFactory> factories;
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;
    reg->factories["cpu"] = [](const DeviceConfig& c) { return make_cpu_device(c); };
    reg->factories["cuda"] = [](const DeviceConfig& c) { return make_cuda_device(c); };
    reg->factories["ascend"] = [](const DeviceConfig& c) { return make_ascend_device(c); };
    return reg;
  }();
  return *r;
}

}  // namespace

std::string_view outcome_name(Outcome o) {
  for (const auto& [k, n] : kOutcomeNames)
    if (k == o) return n;
  return "unknown";
}

std::optional<Outcome> outcome_from_name(std::string_view name) {
  for (const auto& [k, n] : kOutcomeNames)
    if (n == name) return k;
  return std::nullopt;
}

ProfileResult Device::profile(const MeasureRequest&) {
  ProfileResult p;
  p.reason = "the " + kind() + " device has no vendor profiler";
  return p;
}

std::optional<double> Device::floor_ns(const ConcreteCase& c) {
  const double bw = fingerprint().peak_bandwidth_gbps;
  if (bw <= 0) return std::nullopt;
  return case_bytes(c) / bw;
}

double case_bytes(const ConcreteCase& c) {
  double bytes = 0;
  for (const auto* list : {&c.inputs, &c.outputs})
    for (const auto& t : *list) bytes += static_cast<double>(t.numel) * static_cast<double>(dtype_size(t.dtype));
  return bytes;
}

void register_device(const std::string& kind, DeviceFactory factory) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.factories[kind] = std::move(factory);
}

std::vector<std::string> device_kinds() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<std::string> out;
  for (const auto& [k, f] : r.factories) out.push_back(k);
  return out;
}

DeviceSpec parse_device_spec(const std::string& spec) {
  if (const std::optional<std::string> kind = slurm_kind(spec)) {
    if (kind->empty() || kind->find_first_of("@:") != std::string::npos)
      throw Error("device \"" + spec + "\": write slurm:KIND with a local kind (slurm:cpu, slurm:cuda, slurm:ascend)");
    return {*kind, "", "slurm"};
  }
  DeviceSpec s;
  auto at = spec.find('@');
  s.kind = spec.substr(0, at);
  if (at != std::string::npos) s.host = spec.substr(at + 1);
  auto bad = [&](const std::string& why) {
    return Error("device \"" + spec + "\": " + why + " (write KIND or KIND@[USER@]HOST[:PORT], e.g. cuda@gpu-box)");
  };
  if (s.kind.empty()) throw bad("no device kind before '@'");
  if (at != std::string::npos && s.host.empty()) throw bad("no host after '@'");
  for (char ch : s.host)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-' || ch == '_' || ch == '@' ||
          ch == ':'))
      throw bad(std::string("the host has the character '") + ch + "'");
  if (!s.host.empty() && s.host[0] == '-') throw bad("a host cannot start with '-'");
  return s;
}

std::unique_ptr<Device> make_device(const std::string& spec, const DeviceConfig& config) {
  DeviceSpec s = parse_device_spec(spec);
  if (s.executor == "slurm") return make_slurm_device(s.kind, slurm_options(), config);
  DeviceFactory factory;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.factories.find(s.kind);
    if (it == r.factories.end()) {
      std::string kinds;
      for (const auto& [k, f] : r.factories) kinds += (kinds.empty() ? "" : ", ") + k;
      throw Error("unknown device \"" + s.kind + "\" (devices: " + kinds + "; a remote one is KIND@HOST)");
    }
    factory = it->second;
  }
  if (s.host.empty()) return factory(config);
  return make_remote_device(s.kind, s.host, config);
}

std::string baseline_source(const Task& task, const std::string& kind) {
  if (auto it = task.baselines.find(kind); it != task.baselines.end()) return it->second;
  if (kind == "cpu") return task.baseline;
  const std::string suffix = kind == "cuda" ? ".cu" : ".cpp";
  const std::string want = "baselines/" + kind + "/" + task.name + suffix;
  for (const auto& f : embedded_files())
    if (f.path == want) return std::string(f.text);
  return "";
}

std::optional<LibraryImpl> library_impl_for(const Task& task, const std::string& kind, std::string* why) {
  auto say = [&](const std::string& w) {
    if (why) *why = w;
    return std::nullopt;
  };
  if (auto it = task.library.find(kind); it != task.library.end()) {
    if (it->second) return it->second;
    return say(task.library_why.empty() ? "the task names no " + kind + " library implementation" : task.library_why);
  }
  const std::string suffix = kind == "cuda" ? ".cu" : ".cpp";
  const std::string want = "library/" + kind + "/" + task.name + suffix;
  for (const auto& f : embedded_files())
    if (f.path == want) {
      LibraryImpl lib;
      lib.source = std::string(f.text);
      // The libraries the documented headers ask for: aclnn's two-phase operators (libopapi), its tensors
      // (libnnopbase) and the runtime; ATen's CUDA operators over libtorch.
      if (kind == "ascend") lib.link = {"opapi", "nnopbase", "ascendcl"};
      if (kind == "cuda") lib.link = {"torch_cuda", "torch_cpu", "c10_cuda", "c10"};
      return lib;
    }
  return say("no " + kind + " library baseline is written for this task yet (resources/" + want + ")");
}

std::string prompt_template(const std::string& kind, const std::string& name) {
  if (name.find("..") != std::string::npos || name.find('/') != std::string::npos) return "";
  if (const char* dir = std::getenv("KOPE_PROMPTS_DIR"); dir && *dir) {
    std::string s = read_file_or_empty(fs::path(dir) / kind / name);
    if (!s.empty()) return s;
  }
  const std::string want = "prompts/" + kind + "/" + name;
  for (const auto& f : embedded_files())
    if (f.path == want) return std::string(f.text);
  return "";
}

std::vector<std::string> prompt_template_names(const std::string& kind) {
  std::map<std::string, int> names;
  const std::string prefix = "prompts/" + kind + "/";
  for (const auto& f : embedded_files())
    if (f.path.substr(0, prefix.size()) == prefix) names[std::string(f.path.substr(prefix.size()))] = 1;
  if (const char* dir = std::getenv("KOPE_PROMPTS_DIR"); dir && *dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(dir) / kind, ec))
      if (e.is_regular_file()) names[e.path().filename().string()] = 1;
  }
  std::vector<std::string> out;
  for (const auto& [n, one] : names) out.push_back(n);
  return out;
}

json to_json(const Availability& a) { return {{"available", a.available}, {"reason", a.reason}}; }

json to_json(const Capabilities& c) {
  return {{"language", c.language},   {"source_suffix", c.source_suffix}, {"header", c.header},
          {"can_build", c.can_build}, {"can_run", c.can_run},             {"can_time", c.can_time},
          {"profiler", c.profiler},   {"sanitizer", c.sanitizer},         {"build_modes", c.build_modes}};
}

Fingerprint fingerprint_from_json(const nlohmann::json& j) {
  Fingerprint f;
  f.model = j.value("model", "");
  f.driver_version = j.value("driver_version", "");
  f.toolkit_version = j.value("toolkit_version", "");
  f.host = j.value("host", "");
  f.count = j.value("count", 0);
  f.core_clock_mhz = j.value("core_clock_mhz", 0.0);
  f.memory_clock_mhz = j.value("memory_clock_mhz", 0.0);
  f.memory_bytes = j.value("memory_bytes", uint64_t{0});
  f.peak_bandwidth_gbps = j.value("peak_bandwidth_gbps", 0.0);
  const nlohmann::json extra = j.value("extra", nlohmann::json::object());  // a named copy: items() must not outlive it
  for (const auto& [k, v] : extra.items()) f.extra.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  return f;
}

json to_json(const Fingerprint& f) {
  json extra = json::object();
  for (const auto& [k, v] : f.extra) extra[k] = v;
  return {{"device", f.device},
          {"model", f.model},
          {"driver_version", f.driver_version},
          {"toolkit_version", f.toolkit_version},
          {"host", f.host},
          {"count", f.count},
          {"core_clock_mhz", f.core_clock_mhz},
          {"memory_clock_mhz", f.memory_clock_mhz},
          {"memory_bytes", f.memory_bytes},
          {"peak_bandwidth_gbps", f.peak_bandwidth_gbps},
          {"extra", extra}};
}

json to_json(const ProfileResult& p) {
  json rows = json::array();
  for (const auto& c : p.counters)
    rows.push_back({{"section", c.section}, {"name", c.name}, {"value", c.value}, {"unit", c.unit}});
  return {{"available", p.available}, {"reason", p.reason}, {"tool", p.tool}, {"counters", rows},
          {"command", p.command}};
}

std::optional<std::string> env_value(const std::vector<std::string>& env, const std::string& name) {
  for (auto it = env.rbegin(); it != env.rend(); ++it)
    if (it->size() > name.size() && it->compare(0, name.size(), name) == 0 && (*it)[name.size()] == '=')
      return it->substr(name.size() + 1);
  if (const char* v = std::getenv(name.c_str())) return std::string(v);
  return std::nullopt;
}

fs::path find_program(const std::string& name, const std::vector<std::string>& env,
                      const std::vector<fs::path>& extra_dirs) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? fs::path(name) : fs::path();
  std::vector<fs::path> dirs;
  std::stringstream path(env_value(env, "PATH").value_or("/usr/local/bin:/usr/bin:/bin"));
  std::string d;
  while (std::getline(path, d, ':'))
    if (!d.empty()) dirs.emplace_back(d);
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  for (const auto& dir : dirs) {
    fs::path p = dir / name;
    std::error_code ec;
    if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

}  // namespace kope::device

namespace kope::device {

fs::path work_dir_for(const DeviceConfig& config) {
  fs::path dir = config.work_dir;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = fs::path(tmp && *tmp ? tmp : "/tmp") / ("kope-device-" + std::to_string(getuid()));
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create the device work folder " + dir.string() + ": " + ec.message());
  return dir;
}

fs::path include_dir_for(const DeviceConfig& config) {
  if (!config.include_dir.empty()) return config.include_dir;
  const fs::path dir = work_dir_for(config) / "include";
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& f : embedded_files()) {
    if (f.path.substr(0, 8) != "include/") continue;
    const fs::path p = dir / std::string(f.path.substr(8));
    if (read_file_or_empty(p) != f.text) write_file_atomic(p, std::string(f.text));
  }
  return dir;
}

std::string tail_text(const std::string& s, std::size_t n) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

}  // namespace kope::device
