// The Ascend device: bisheng direct-launch builds (or an msOpGen operator project), runs through kope's Ascend
// worker, kernel-only times and counters from `msprof op`. Never run on a real board: see README "Ascend".
// This file: the toolkit, the board, the fingerprint and the builds; ascend_measure.cpp runs what they built.
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ascend_device_internal.h"
#include "kope/device/ascend.h"
#include "kope/device/worker_sandbox.h"
#include "kope/device/worker_protocol.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/base/sha256.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace ascend;

namespace {

std::string camel(const std::string& snake) {
  std::string out;
  bool up = true;
  for (char ch : snake) {
    if (ch == '_') { up = true; continue; }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(ch))) : ch;
    up = false;
  }
  return out;
}

std::string snake(const std::string& camel_name) {
  std::string out;
  for (std::size_t i = 0; i < camel_name.size(); ++i) {
    char ch = camel_name[i];
    if (std::isupper(static_cast<unsigned char>(ch))) {
      if (i) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else out += ch;
  }
  return out;
}

// Nominal HBM bandwidth by SoC (vendor figures, unverified on a board): the floor's denominator.
double nominal_bandwidth_gbps(const std::string& soc) {
  if (soc.rfind("Ascend910B", 0) == 0) return 1600;
  if (soc.rfind("Ascend910_93", 0) == 0 || soc == "Ascend910") return 1600;  // per die
  if (soc.rfind("Ascend310P", 0) == 0) return 204.8;
  return 0;
}

}  // namespace

std::string AscendDevice::trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

Availability AscendDevice::availability() {
  const Toolkit& tk = toolkit();
  if (!tk.found) return {false, tk.reason};
  if (tk.bisheng.empty()) return {false, tk.reason + ", but without bisheng (compiler/ccec_compiler/bin)"};
  return {true, tk.reason + "; " + board_state()};
}

Capabilities AscendDevice::capabilities() {
  Capabilities c;
  c.language = "AscendC (kernel_operator.h) with kope_ascend.h";
  c.source_suffix = ".cpp";
  c.header = "kope_ascend.h";
  const Toolkit& tk = toolkit();
  c.can_build = tk.found && !tk.bisheng.empty();
  c.can_run = !healthy_chips().empty() || !tk.tikicpulib_cmake.empty();  // the CPU twin runs without a board
  c.can_time = !healthy_chips().empty() && !tk.msprof.empty();
  c.profiler = c.can_time;
  if (c.can_build) c.build_modes.push_back("direct");
  if (c.can_build && !tk.msopgen.empty()) c.build_modes.push_back("msopgen");
  if (!tk.tikicpulib_cmake.empty()) c.build_modes.push_back("cpu-twin");
  return c;
}

Fingerprint AscendDevice::fingerprint() {
  Fingerprint f;
  f.device = "ascend";
  const Toolkit& tk = toolkit();
  f.toolkit_version = tk.found ? "CANN " + tk.version : "";
  const NpuSmiInfo& s = smi();
  f.driver_version = s.version.empty() ? "" : "npu-smi " + s.version;
  f.count = static_cast<int>(s.chips.size());
  auto healthy = healthy_chips();
  if (!healthy.empty()) {
    f.model = soc_version_for(healthy[0].name);
    f.memory_bytes = healthy[0].hbm_total_mb << 20;
    f.extra.emplace_back("bus_id", healthy[0].bus_id);
    f.extra.emplace_back("health", healthy[0].health);
  }
  const std::string soc = soc_version();
  f.extra.emplace_back("soc_version", soc);
  f.extra.emplace_back("npu_arch", npu_arch());
  f.peak_bandwidth_gbps = nominal_bandwidth_gbps(soc);
  if (f.peak_bandwidth_gbps > 0) f.extra.emplace_back("peak_bandwidth_source", "nominal HBM figure for the SoC (unverified)");
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) f.host = host;
  return f;
}

BuildResult AscendDevice::build(const std::string& source, const BuildOptions& o) {
  const std::string mode = o.mode.empty() ? "direct" : o.mode;
  if (mode == "direct") return build_direct(source, o);
  if (mode == "msopgen") return build_msopgen(source, o);
  if (mode == "cpu-twin") return build_twin(source, o);
  if (mode == "library") return build_library(source, o);
  BuildResult b;
  b.error = "unknown Ascend build mode \"" + mode + "\" (direct, msopgen, cpu-twin, library)";
  return b;
}

std::optional<double> AscendDevice::floor_ns(const ConcreteCase& c) {
  const double bw = nominal_bandwidth_gbps(soc_version());
  if (bw <= 0) return std::nullopt;
  return case_bytes(c) / bw;
}

const Toolkit& AscendDevice::toolkit() {
  if (!tk_) tk_ = find_toolkit(config_.env);
  return *tk_;
}

const NpuSmiInfo& AscendDevice::smi() {
  if (smi_) return *smi_;
  smi_ = NpuSmiInfo{};
  fs::path npu_smi = toolkit().npu_smi;
  if (npu_smi.empty()) npu_smi = find_program("npu-smi", config_.env, {"/usr/local/sbin", "/usr/local/Ascend/driver/tools"});
  if (npu_smi.empty()) {
    smi_->error = "npu-smi not found (no Ascend driver on this host)";
    return *smi_;
  }
  ProcessLimits lim;
  lim.wall_seconds = 30;
  ProcessResult r = run_process({npu_smi.string(), "info"}, lim, {}, tool_env());
  if (!r.ok()) {
    smi_->error = "npu-smi info failed (" + r.describe() + "): " + trim(tail_text(r.err + r.out, 400));
    return *smi_;
  }
  smi_ = parse_npu_smi_info(r.out);
  return *smi_;
}

std::vector<NpuChip> AscendDevice::healthy_chips() {
  std::vector<NpuChip> out;
  for (const auto& c : smi().chips)
    if (c.health == "OK" || c.health == "Warning") out.push_back(c);
  return out;
}

std::string AscendDevice::board_state() {
  const NpuSmiInfo& s = smi();
  if (!s.ok) return "no board: " + s.error;
  std::string sick;
  for (const auto& c : s.chips)
    if (c.health != "OK" && c.health != "Warning")
      sick += (sick.empty() ? "" : ", ") + std::string("NPU ") + std::to_string(c.npu) + " chip " + std::to_string(c.chip) + " is " + c.health;
  auto ok = healthy_chips();
  std::string state = std::to_string(ok.size()) + " usable NPU chip(s)" +
                      (ok.empty() ? "" : " (" + soc_version_for(ok[0].name) + ")");
  return sick.empty() ? state : state + "; " + sick;
}

std::string AscendDevice::soc_version() {
  if (auto v = env_value(config_.env, "KOPE_ASCEND_SOC"); v && !v->empty()) return *v;
  auto ok = healthy_chips();
  if (!ok.empty()) return soc_version_for(ok[0].name);
  return "Ascend910B1";  // the documented default when no board says otherwise
}

std::string AscendDevice::npu_arch() {
  if (auto v = env_value(config_.env, "KOPE_ASCEND_NPU_ARCH"); v && !v->empty()) return *v;
  std::string a = npu_arch_for(soc_version());
  return a.empty() ? "dav-2201" : a;
}

BuildResult AscendDevice::build_direct(const std::string& source, const BuildOptions& o) {
  BuildResult b;
  const Toolkit& tk = toolkit();
  if (!tk.found || tk.bisheng.empty()) {
    b.error = "cannot build for Ascend: " + (tk.found ? tk.reason + ", but without bisheng" : tk.reason);
    return b;
  }
  const std::string entry = kernel_entry_name(source);
  const std::string arch = npu_arch();
  std::string key_material = source + '\0' + arch + '\0' + tk.version + '\0' + tk.bisheng.string();
  for (const auto& f : o.flags) key_material += '\0' + f;
  for (const auto& d : o.defines) key_material += '\0' + d;
  const std::string key = sha256_hex(key_material).substr(0, 24);
  const fs::path dir = (o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir) / ("ascend-" + key);
  fs::create_directories(dir);
  b.artifact = dir / "kernel.so";
  std::vector<std::string> flags = o.flags;
  for (const auto& d : o.defines) flags.push_back("-D" + d);
  b.command = bisheng_command(tk, arch, dir / "kernel.cpp", dir / "kernel.so.tmp", {include_dir_for(config_).string()}, flags);
  if (fs::exists(b.artifact) && fs::exists(entry_file(b.artifact))) {
    b.ok = b.cached = true;
    return b;
  }
  if (entry.empty()) {
    b.error = o.display_name + ": no `extern \"C\" __global__ __aicore__ void NAME(...)` kernel in the source";
    return b;
  }
  std::string display = o.display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(dir / "kernel.cpp", "#line 1 \"" + display + "\"\n" + source);
  ProcessLimits lim;
  lim.wall_seconds = o.timeout_seconds;
  lim.max_captured_bytes = 256 << 10;
  ProcessResult pr = run_process(b.command, lim, dir, tool_env());
  finish_build(b, pr, "bisheng");
  if (!b.ok) return b;
  std::error_code ec;
  fs::rename(dir / "kernel.so.tmp", b.artifact, ec);
  if (ec || !fs::exists(b.artifact)) {
    b.ok = false;
    b.error = "bisheng succeeded but left no " + (dir / "kernel.so.tmp").string();
    return b;
  }
  write_file_atomic(entry_file(b.artifact), entry + "\n");
  return b;
}

void AscendDevice::finish_build(BuildResult& b, const ProcessResult& pr, const std::string& tool) {
  b.seconds += pr.wall_seconds;
  b.log += pr.err + pr.out;
  b.diagnostics = parse_bisheng_output(b.log);
  if (pr.ok()) {
    b.ok = true;
    return;
  }
  b.ok = false;
  if (!pr.started) b.error = tool + " could not be started: " + pr.error;
  else if (pr.timed_out) {
    b.timed_out = true;
    b.error = tool + " " + pr.describe();
  } else {
    b.error = "compilation failed (" + tool + ": " + pr.describe() + ")";
    for (const auto& d : b.diagnostics)
      if (d.severity == "error" || d.severity == "fatal error") {
        b.error += ": " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
        break;
      }
  }
}

BuildResult AscendDevice::build_msopgen(const std::string& source, const BuildOptions& o) {
  BuildResult b;
  const Toolkit& tk = toolkit();
  if (!tk.found || tk.msopgen.empty()) {
    b.error = "cannot build an operator project: " + (tk.found ? "msopgen is not in the toolkit" : tk.reason);
    return b;
  }
  if (!o.signature) {
    b.error = "an msOpGen build needs the case's tensors (BuildOptions::signature)";
    return b;
  }
  const std::string entry = kernel_entry_name(source);
  if (entry.empty()) {
    b.error = o.display_name + ": no `__global__ __aicore__ void NAME(...)` kernel in the source";
    return b;
  }
  const std::string op = camel(entry);
  const std::string soc = soc_version();
  const std::string key = sha256_hex(source + '\0' + soc + '\0' + tk.version + '\0' + op_json_for(op, *o.signature).dump()).substr(0, 24);
  const fs::path dir = (o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir) / ("ascend-op-" + key);
  const fs::path installed = dir / "install";
  std::error_code ec;
  fs::remove_all(dir / "project", ec);
  fs::create_directories(dir);
  write_file_atomic(dir / "op.json", op_json_for(op, *o.signature).dump(2));
  ProcessLimits lim;
  lim.wall_seconds = o.timeout_seconds;
  lim.max_captured_bytes = 512 << 10;
  const auto env = tool_env();
  // 1. msopgen gen: the project skeleton.
  b.command = msopgen_command(tk, dir / "op.json", soc, dir / "project");
  ProcessResult pr = run_process(b.command, lim, dir, env);
  finish_build(b, pr, "msopgen");
  if (!b.ok) return b;
  // 2. Our kernel in op_kernel/, then build.sh.
  const fs::path kernel_file = dir / "project/op_kernel" / (snake(op) + ".cpp");
  if (!fs::is_directory(kernel_file.parent_path())) {
    b.ok = false;
    b.error = "msopgen made no op_kernel/ folder in " + (dir / "project").string();
    return b;
  }
  std::string display = o.display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(kernel_file, "#line 1 \"" + display + "\"\n" + source);
  pr = run_process({"bash", "build.sh"}, lim, dir / "project", env);
  b.command.insert(b.command.end(), {"&&", "bash", "build.sh"});
  finish_build(b, pr, "build.sh");
  if (!b.ok) return b;
  // 3. Install the .run package into our own folder.
  fs::path run_file;
  for (const auto& e : fs::directory_iterator(dir / "project/build_out", ec))
    if (e.path().filename().string().rfind("custom_opp_", 0) == 0 && e.path().extension() == ".run") run_file = e.path();
  if (run_file.empty()) {
    b.ok = false;
    b.error = "build.sh succeeded but left no build_out/custom_opp_*.run";
    return b;
  }
  fs::create_directories(installed);
  pr = run_process({"bash", run_file.string(), "--install-path=" + installed.string()}, lim, dir, env);
  finish_build(b, pr, run_file.filename().string());
  if (!b.ok) return b;
  for (const fs::path& p : {installed / "vendors/customize", installed / "opp/vendors/customize"})
    if (fs::is_directory(p)) b.artifact = p;
  if (b.artifact.empty()) {
    b.ok = false;
    b.error = "the operator package installed nothing under " + installed.string() + "/vendors/customize";
  }
  return b;
}

BuildResult AscendDevice::build_twin(const std::string& source, const BuildOptions& o) {
  BuildResult b;
  const Toolkit& tk = toolkit();
  if (tk.tikicpulib_cmake.empty()) {
    b.error = "no CPU twin: tools/tikicpulib/lib/cmake is not in the toolkit (" + tk.reason + ")";
    return b;
  }
  const std::string soc = soc_version();
  const std::string key = sha256_hex(source + '\0' + soc + '\0' + tk.version).substr(0, 24);
  const fs::path dir = (o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir) / ("ascend-twin-" + key);
  fs::create_directories(dir);
  std::string display = o.display_name;
  for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
  write_file_atomic(dir / "kernel.cpp", "#line 1 \"" + display + "\"\n" + source);
  write_file_atomic(dir / "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.16)\nproject(kope_twin CXX)\n"
                    "list(APPEND CMAKE_PREFIX_PATH \"" + tk.tikicpulib_cmake.string() + "\")\n"
                    "find_package(tikicpulib REQUIRED)\n"
                    "add_library(kernel SHARED kernel.cpp)\n"
                    "target_include_directories(kernel PRIVATE \"" + include_dir_for(config_).string() + "\")\n"
                    "target_compile_definitions(kernel PRIVATE ASCENDC_CPU_DEBUG)\n"
                    "target_link_libraries(kernel PRIVATE tikicpulib::${SOC_VERSION})\n");
  ProcessLimits lim;
  lim.wall_seconds = o.timeout_seconds;
  b.command = {"cmake", "-S", dir.string(), "-B", (dir / "build").string(), "-DSOC_VERSION=" + soc};
  ProcessResult pr = run_process(b.command, lim, dir, tool_env());
  finish_build(b, pr, "cmake");
  if (!b.ok) return b;
  pr = run_process({"cmake", "--build", (dir / "build").string()}, lim, dir, tool_env());
  finish_build(b, pr, "the CPU twin build");
  if (!b.ok) return b;
  b.artifact = dir / "build/libkernel.so";
  write_file_atomic(entry_file(b.artifact), kernel_entry_name(source) + "\n");
  write_file_atomic(twin_file(b.artifact), soc + "\n");
  return b;
}

std::unique_ptr<Device> make_ascend_device(const DeviceConfig& config) { return std::make_unique<AscendDevice>(config); }

}  // namespace kope::device
