// The CPU device through the Device interface: build with compile_kernel, measure with kope-runner (which
// generates the case's inputs from its seed, the same bytes as the judge's), floor from a measured copy bandwidth.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "kope/device/cpu.h"
#include "kope/base/error.h"
#include "kope/exec/paths.h"
#include "kope/model/report.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/exec/cache.h"
#include "kope/exec/judge.h"
#include "kope/base/text.h"

using namespace kope::exec;

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Bytes per ns of a copy, measured once per process the way the judge measures it (kope/cache.h), so the
// floor an evaluation records through the device is the floor the judge always used.
double host_copy_bandwidth() {
  static double bw = [] {
    std::vector<unsigned char> scratch(default_flush_bytes(), 1);
    return copy_bandwidth(scratch);
  }();
  return bw;
}

class CpuDevice : public Device {
 public:
  explicit CpuDevice(DeviceConfig c) : config_(std::move(c)) {}
  std::string name() const override { return "cpu"; }
  std::string kind() const override { return "cpu"; }

  Availability availability() override {
    fs::path cxx = find_program(env_value(config_.env, "CXX").value_or("c++"), config_.env);
    if (cxx.empty()) return {false, "no C++ compiler: neither $CXX nor c++ is in PATH (install g++)"};
    return {true, "compiler " + cxx.string()};
  }

  Capabilities capabilities() override {
    Capabilities c;
    c.language = "C++20 with kope_kernel.h";
    c.source_suffix = ".cpp";
    c.header = "kope_kernel.h";
    c.can_build = availability().available;
    c.can_run = c.can_time = true;
    c.build_modes = {"shared-object"};
    return c;
  }

  Fingerprint fingerprint() override {
    Fingerprint f = cpu_fingerprint();
    ProcessLimits lim;
    lim.wall_seconds = 20;
    ProcessResult r = run_process({env_value(config_.env, "CXX").value_or("c++"), "--version"}, lim);
    if (r.ok()) f.toolkit_version = first_line(r.out);
    return f;
  }

  BuildResult build(const std::string& source, const BuildOptions& o) override {
    CompileOptions co;
    if (!o.flags.empty()) co.flags = o.flags;
    co.defines = o.defines;
    co.prelude = o.prelude;
    co.timeout_seconds = o.timeout_seconds;
    co.cancel = o.cancel;
    if (auto cxx = env_value(config_.env, "CXX")) co.cxx = *cxx;
    fs::path dir = o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir;
    return compile_kernel(source, o.display_name, dir, include_dir_for(config_), co);
  }

  // The judge is the CPU device's measure: the same sandboxed workers (memfd arenas, futex handshake), the
  // judge's clock, sentinels and flushes as an evaluation; the outputs come back raw for the caller to check.
  MeasureResult measure(const MeasureRequest& q) override {
    MeasureResult m;
    m.timer = "steady_clock";
    for (const auto* so : {&q.candidate, &q.baseline}) {
      std::error_code ec;
      if (!so->empty() && !fs::is_regular_file(*so, ec)) {
        m.outcome = Outcome::LoadError;
        m.message = std::string(so == &q.candidate ? "the kernel" : "the baseline") + " could not be loaded: " +
                    so->string() + " does not exist";
        return m;
      }
    }
    fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("job-" + std::to_string(getpid())) : q.scratch;
    EvalPaths paths;
    paths.jobs = dir;
    paths.runner = config_.runner.empty() ? find_runner() : config_.runner;
    JudgeOptions o;
    o.case_timeout_seconds = q.timeout_seconds;
    o.memory_bytes = q.host_memory_bytes;
    o.interleave = q.interleave;
    if (q.flush_bytes) {
      o.flush = "read";
      o.flush_bytes = q.flush_bytes;
    }
    try {
      std::error_code ec;
      fs::create_directories(dir, ec);
      Judge judge(paths, q.candidate, q.baseline.empty() ? q.candidate : q.baseline, {q.kcase}, o);
      Judge::Calls calls = judge.measure_calls(q.kcase, q.inputs, q.warmup, q.reps, !q.baseline.empty(), q.interleave);
      const CaseResult& r = calls.failure;
      m.log = r.log;
      m.measured_bandwidth_gbps = judge.copy_bytes_per_ns();
      if (!r.correct()) {
        m.failed_call = r.failed_call;
        m.message = r.message;
        switch (r.status) {
          case CaseStatus::Crash: m.outcome = Outcome::Crash; break;
          case CaseStatus::Timeout: m.outcome = Outcome::Timeout; break;
          case CaseStatus::LoadError: m.outcome = Outcome::LoadError; break;
          case CaseStatus::InputsModified: m.outcome = Outcome::InputsModified; break;
          case CaseStatus::Background: m.outcome = Outcome::BackgroundWork; break;
          default: m.outcome = Outcome::KernelError;
        }
        if (m.outcome == Outcome::Crash && r.message.find("out of memory") != std::string::npos)
          m.outcome = Outcome::OutOfMemory;
        return m;
      }
      m.first_outputs = std::move(calls.first_outputs);
      m.last_outputs = std::move(calls.last_outputs);
      m.candidate_ns = std::move(calls.candidate_ns);
      m.baseline_ns = std::move(calls.baseline_ns);
      m.order = std::move(calls.order);
    } catch (const Error& e) {
      m.outcome = Outcome::ToolError;  // the judge could not set up (shared memory, the job folder, bad inputs)
      m.message = e.what();
    }
    return m;
  }

  std::optional<double> floor_ns(const ConcreteCase& c) override {
    const double bw = host_copy_bandwidth();
    if (bw <= 0) return std::nullopt;
    return case_bytes(c) / bw;
  }

 private:
  DeviceConfig config_;
};

}  // namespace

Fingerprint cpu_fingerprint() {
  Fingerprint f;
  f.device = "cpu";
  f.count = static_cast<int>(std::thread::hardware_concurrency());
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (key == "model name" && f.model.empty()) f.model = value;
    if (key == "cpu MHz" && f.core_clock_mhz == 0) f.core_clock_mhz = std::atof(value.c_str());
  }
  std::ifstream mem("/proc/meminfo");
  while (std::getline(mem, line))
    if (line.rfind("MemTotal:", 0) == 0) f.memory_bytes = std::stoull(trim(line.substr(9))) * 1024;
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) f.host = host;
  // sysfs, not sysconf: sysconf over-reports the L3 on this machine kind (see STYLE.md).
  std::string l3 = trim(read_file_or_empty("/sys/devices/system/cpu/cpu0/cache/index3/size"));
  if (!l3.empty()) f.extra.emplace_back("l3_cache", l3);
  f.peak_bandwidth_gbps = host_copy_bandwidth();
  f.extra.emplace_back("peak_bandwidth_source", "copy bandwidth measured in this process (as the judge does)");
  return f;
}

std::unique_ptr<Device> make_cpu_device(const DeviceConfig& config) { return std::make_unique<CpuDevice>(config); }

}  // namespace kope::device
