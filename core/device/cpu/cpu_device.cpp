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
#include "kope/error.h"
#include "kope/evaluator.h"
#include "kope/fsutil.h"
#include "kope/process.h"
#include "kope/runner.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  return s.substr(i);
}

// Bytes per ns of a large memcpy (read + write), best of three; measured once per process.
double host_copy_bandwidth() {
  static double bw = [] {
    std::vector<unsigned char> buf(std::size_t{128} << 20, 1);
    const std::size_t half = buf.size() / 2;
    double best = 0;
    for (int i = 0; i < 3; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      std::memcpy(buf.data() + half, buf.data(), half);
      auto t1 = std::chrono::steady_clock::now();
      double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
      if (ns > 0) best = std::max(best, 2.0 * static_cast<double>(half) / ns);
    }
    return best;
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
    co.timeout_seconds = o.timeout_seconds;
    if (auto cxx = env_value(config_.env, "CXX")) co.cxx = *cxx;
    fs::path dir = o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir;
    CompileResult r = compile_kernel(source, o.display_name, dir, include_dir_for(config_), co);
    BuildResult b;
    b.ok = r.ok;
    b.cached = r.cached;
    b.artifact = r.shared_object;
    b.diagnostics = r.diagnostics;
    b.log = r.log;
    b.error = r.error;
    b.command = r.command;
    b.seconds = r.seconds;
    return b;
  }

  MeasureResult measure(const MeasureRequest& q) override {
    MeasureResult m;
    m.timer = "steady_clock";
    fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("job-" + std::to_string(getpid())) : q.scratch;
    std::error_code ec;
    fs::create_directories(dir, ec);
    RunnerJob job;
    job.mode = RunnerJob::Mode::Measure;
    job.kcase = q.kcase;
    job.kernel = q.candidate;
    job.baseline = q.baseline.empty() ? q.candidate : q.baseline;
    job.out_dir = dir;
    job.warmup = q.warmup;
    job.reps = q.reps;
    job.flush_bytes = q.flush_bytes;
    job.interleave = q.interleave;
    const fs::path job_file = dir / "job.json";
    write_file_atomic(job_file, to_json(job).dump());
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds;
    lim.address_space_bytes = q.host_memory_bytes;
    lim.max_file_bytes = uint64_t{8} << 30;
    lim.max_captured_bytes = 64 << 10;
    const fs::path runner = config_.runner.empty() ? find_runner() : config_.runner;
    ProcessResult pr = run_process({runner.string(), job_file.string()}, lim, dir);
    m.log = tail_text(pr.out + pr.err, 4000);
    const std::string phase = trim(read_file_or_empty(phase_path(dir)));
    const std::string during = phase.empty() ? "" : " during the " + phase;
    if (pr.timed_out) {
      m.outcome = Outcome::Timeout;
      m.message = pr.describe() + during + "; the process group was killed";
      return m;
    }
    if (pr.term_signal) {
      m.outcome = Outcome::Crash;
      m.message = "the kernel process was killed by " + signal_name(pr.term_signal) + during;
      return m;
    }
    if (!pr.started || pr.exit_code != 0) {
      switch (pr.exit_code) {
        case kRunnerKernelError: m.outcome = Outcome::KernelError; break;
        case kRunnerLoadError: m.outcome = Outcome::LoadError; break;
        case kRunnerInputsModified: m.outcome = Outcome::InputsModified; break;
        default: m.outcome = pr.started ? Outcome::KernelError : Outcome::ToolError;
      }
      const std::string why = trim(tail_text(pr.err, 600));
      m.message = (pr.started ? "the kernel process ended with " + pr.describe() : pr.describe()) + during +
                  (why.empty() ? "" : ": " + why);
      return m;
    }
    for (std::size_t i = 0; i < q.kcase.outputs.size(); ++i) {
      m.first_outputs.push_back(read_file(first_output_path(dir, i), "output"));
      m.last_outputs.push_back(read_file(last_output_path(dir, i), "output"));
    }
    json result = json::parse(read_file(result_path(dir), "runner result"));
    m.baseline_ns = result.at("base_ns").get<std::vector<double>>();
    m.candidate_ns = result.at("cand_ns").get<std::vector<double>>();
    if (result.contains("order"))
      for (const auto& o : result["order"]) {
        for (char ch : o.is_string() ? o.get<std::string>() : std::string())  // "BC" or "CB" per rep
          m.order.push_back(ch == 'B' ? 'b' : 'c');
      }
    m.measured_bandwidth_gbps = result.value("copy_bytes_per_ns", 0.0);
    if (q.baseline.empty()) m.baseline_ns.clear();
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
  f.extra.emplace_back("peak_bandwidth_source", "one-core memcpy measured in this process");
  return f;
}

std::unique_ptr<Device> make_cpu_device(const DeviceConfig& config) { return std::make_unique<CpuDevice>(config); }

}  // namespace kope::device
