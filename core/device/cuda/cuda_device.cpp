// The CUDA device: nvcc builds for the present GPU's architecture, kope-cuda-worker runs and times them,
// compute-sanitizer checks them and ncu profiles them where installed.
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/device/cuda.h"
#include "kope/device/worker_sandbox.h"
#include "kope/device/worker_protocol.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/base/sha256.h"
#include "kope/base/text.h"

using namespace kope::exec;

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace cuda;

namespace {

// kope-cuda-worker: $KOPE_CUDA_WORKER, else beside the running executable, else the build tree's.
fs::path find_worker(const std::vector<std::string>& env) {
  if (auto v = env_value(env, "KOPE_CUDA_WORKER"); v && !v->empty() && fs::exists(*v)) return *v;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(self.parent_path() / "kope-cuda-worker")) return self.parent_path() / "kope-cuda-worker";
#ifdef KOPE_CUDA_WORKER_BUILD_PATH
  if (fs::exists(KOPE_CUDA_WORKER_BUILD_PATH)) return KOPE_CUDA_WORKER_BUILD_PATH;
#endif
  return {};
}

constexpr int kSanitizerExit = 86;

}  // namespace

fs::path cuda::build_worker(const fs::path& nvcc, const fs::path& include_dir, const fs::path& work, std::string* error) {
  std::string src;
  for (const auto& f : embedded_files())
    if (f.path == "cuda/kope_cuda_worker.cpp") src = f.text;
  if (src.empty() || nvcc.empty()) {
    *error = nvcc.empty() ? "no nvcc to build kope-cuda-worker with" : "the worker source is not embedded";
    return {};
  }
  const fs::path dir = work / ("cuda-worker-" + sha256_hex(src + '\0' + nvcc.string()).substr(0, 24));
  const fs::path exe = dir / "kope-cuda-worker";
  if (fs::exists(exe)) return exe;
  fs::create_directories(dir);
  write_file_atomic(dir / "kope_cuda_worker.cpp", src);
  ProcessLimits lim;
  lim.wall_seconds = 300;
  ProcessResult r = run_process({nvcc.string(), "-O2", "-std=c++17", "-I" + include_dir.string(), (dir / "kope_cuda_worker.cpp").string(),
                                 "-o", (dir / "worker.tmp").string(), "-ldl"}, lim, dir);
  std::error_code ec;
  if (!r.ok() || (fs::rename(dir / "worker.tmp", exe, ec), ec)) {
    *error = "nvcc could not build kope-cuda-worker (" + r.describe() + "): " + tail_text(r.err + r.out, 600);
    return {};
  }
  return exe;
}

namespace {

class CudaDevice : public Device {
 public:
  explicit CudaDevice(DeviceConfig c) : config_(std::move(c)) {}
  std::string name() const override { return "cuda"; }
  std::string kind() const override { return "cuda"; }

  Availability availability() override {
    const fs::path nvcc = find_nvcc(config_.env);
    if (nvcc.empty())
      return {false, "nvcc not found in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin (install the CUDA toolkit or set KOPE_NVCC)"};
    return {true, "nvcc " + nvcc_version() + " at " + nvcc.string() + "; " + gpu_state()};
  }

  Capabilities capabilities() override {
    Capabilities c;
    c.language = "CUDA C++ with kope_cuda.h";
    c.source_suffix = ".cu";
    c.header = "kope_cuda.h";
    c.can_build = !find_nvcc(config_.env).empty();
    c.can_run = c.can_time = probe().value("count", 0) > 0;
    c.profiler = c.can_run && !find_program("ncu", config_.env, {"/usr/local/cuda/bin"}).empty();
    c.sanitizer = c.can_run && !sanitizer().empty();
    c.build_modes = {"shared-object"};
    return c;
  }

  Fingerprint fingerprint() override {
    Fingerprint f;
    f.device = "cuda";
    f.toolkit_version = nvcc_version().empty() ? "" : "nvcc " + nvcc_version();
    const json& p = probe();
    f.count = p.value("count", 0);
    f.model = p.value("name", "");
    f.memory_bytes = p.value("memory_bytes", uint64_t{0});
    f.core_clock_mhz = p.value("sm_clock_mhz", 0.0);
    f.memory_clock_mhz = p.value("memory_clock_mhz", 0.0);
    f.peak_bandwidth_gbps = p.value("peak_bandwidth_gbps", 0.0);
    if (p.contains("driver")) f.driver_version = "CUDA driver API " + std::to_string(p.value("driver", 0));
    if (p.contains("cc")) f.extra.emplace_back("compute_capability", p.value("cc", ""));
    if (p.contains("l2_bytes")) f.extra.emplace_back("l2_bytes", std::to_string(p.value("l2_bytes", 0)));
    if (p.contains("sm_count")) f.extra.emplace_back("sm_count", std::to_string(p.value("sm_count", 0)));
    if (p.contains("error")) f.extra.emplace_back("gpu", p.value("error", ""));
    ArchChoice a = choose_arch(config_.env);
    f.extra.emplace_back("nvcc_arch", a.flag + " (" + a.source + ")");
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) f.host = host;
    return f;
  }

  // The ATen CUDA library baseline (mode "library"): the source built with nvcc against a CUDA-enabled libtorch;
  // o.flags carry the library's -I and -l flags. Its lib folder is named in <artifact>.needs, for the sandbox.
  BuildResult build_library(const std::string& source, const BuildOptions& o) {
    BuildResult b;
    const fs::path prefix = find_libtorch_cuda(config_.env, &b.error);
    if (prefix.empty()) return b;
    std::vector<std::string> head, libs;
    for (const auto& f : o.flags) (f.rfind("-l", 0) == 0 ? libs : head).push_back(f);
    BuildOptions lo = o;
    lo.mode.clear();
    lo.flags = aten_cuda_flags(prefix, libs);
    lo.flags.insert(lo.flags.begin() + 1, head.begin(), head.end());
    b = build(source, lo);
    if (b.ok) write_file_atomic(fs::path(b.artifact.string() + ".needs"), (prefix / "lib").string() + "\n");
    return b;
  }

  BuildResult build(const std::string& source, const BuildOptions& o) override {
    if (o.mode == "library") return build_library(source, o);
    BuildResult b;
    const fs::path nvcc = find_nvcc(config_.env);
    if (nvcc.empty()) {
      b.error = availability().reason;
      return b;
    }
    const ArchChoice arch = choose_arch(config_.env);
    std::vector<std::string> flags = o.flags.empty() ? std::vector<std::string>{"-O3"} : o.flags;
    for (const auto& d : o.defines) flags.push_back("-D" + d);
    std::string key_material = source + '\0' + nvcc_version() + '\0' + arch.flag + '\0' +
                               read_file_or_empty(include_dir_for(config_) / "kope_cuda.h");
    for (const auto& f : flags) key_material += '\0' + f;
    const std::string key = sha256_hex(key_material).substr(0, 24);
    const fs::path dir = (o.build_dir.empty() ? work_dir_for(config_) / "build" : o.build_dir) / ("cuda-" + key);
    fs::create_directories(dir);
    b.artifact = dir / "kernel.so";
    b.command = {nvcc.string(), "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-lineinfo", arch.flag};
    b.command.insert(b.command.end(), flags.begin(), flags.end());
    b.command.insert(b.command.end(), {"-I" + include_dir_for(config_).string(), "-o", (dir / "kernel.so.tmp").string(),
                                       (dir / "kernel.cu").string()});
    if (fs::exists(b.artifact)) {
      b.ok = b.cached = true;
      return b;
    }
    std::string display = o.display_name;
    for (auto& ch : display) if (ch == '"' || ch == '\\' || ch == '\n') ch = '_';
    write_file_atomic(dir / "kernel.cu", "#line 1 \"" + display + "\"\n" + source);
    ProcessLimits lim;
    lim.wall_seconds = o.timeout_seconds;
    lim.max_captured_bytes = 256 << 10;
    ProcessResult pr = run_process(b.command, lim, dir, config_.env);
    b.seconds = pr.wall_seconds;
    b.log = pr.err + pr.out;
    b.diagnostics = parse_nvcc_output(b.log);
    if (!pr.ok()) {
      if (!pr.started) b.error = "nvcc could not be started: " + pr.error;
      else if (pr.timed_out) {
        b.timed_out = true;
        b.error = "nvcc " + pr.describe();
      } else {
        b.error = "compilation failed (" + pr.describe() + ")";
        for (const auto& d : b.diagnostics)
          if (d.severity == "error" || d.severity == "fatal error") {
            b.error += ": " + d.file + ":" + std::to_string(d.line) + ": " + d.message;
            break;
          }
      }
      return b;
    }
    std::error_code ec;
    fs::rename(dir / "kernel.so.tmp", b.artifact, ec);
    if (ec) {
      b.error = "cannot place the built kernel at " + b.artifact.string() + ": " + ec.message();
      return b;
    }
    b.ok = true;
    return b;
  }

  MeasureResult measure(const MeasureRequest& q) override {
    MeasureResult m;
    m.timer = "cudaEvent";
    std::string werr;
    const fs::path worker = this->worker(&werr);
    if (worker.empty()) {
      m.outcome = Outcome::ToolError;
      m.message = werr;
      return m;
    }
    if (probe().value("count", 0) == 0) {
      m.outcome = Outcome::ToolError;
      m.message = "no GPU: " + probe().value("error", std::string("kope-cuda-worker --probe found none"));
      return m;
    }
    const fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("cuda-job-" + std::to_string(getpid())) : q.scratch;
    write_worker_job(dir, q, q.candidate.string(), q.baseline.string());
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds;
    lim.max_captured_bytes = 256 << 10;
    std::vector<std::string> findings;
    const fs::path san = sanitizer();
    if (q.sanitize && !san.empty()) {
      // The correctness call alone under memcheck: its findings, and an outcome when it found any.
      ProcessResult sr = run_sandboxed(
          worker_spec({san.string(), "--tool", "memcheck", "--error-exitcode", std::to_string(kSanitizerExit),
                       worker.string(), dir.string(), "correctness"},
                      dir, {san.parent_path().parent_path(), q.candidate.parent_path()}),
          q.timeout_seconds * 20, 1 << 20);
      findings = parse_sanitizer_report(sr.out + sr.err);
      if (sr.started && !sr.timed_out && sr.exit_code == kSanitizerExit) {
        m.outcome = Outcome::IllegalAddress;
        m.message = "compute-sanitizer memcheck: " + (findings.empty() ? std::string("errors reported") : findings[0]);
        m.findings = findings;
        m.log = tail_text(sr.out + sr.err, 4000);
        return m;
      }
    }
    (void)lim;
    std::vector<fs::path> ro = {q.candidate.parent_path(), q.baseline.empty() ? fs::path() : q.baseline.parent_path()};
    if (!q.library.empty()) {  // the library, and the libtorch it runs on
      ro.push_back(q.library.parent_path());
      std::istringstream needs(read_file_or_empty(fs::path(q.library.string() + ".needs")));
      for (std::string line; std::getline(needs, line);)
        if (!line.empty()) ro.push_back(line);
    }
    const bool both = !q.baseline.empty() || !q.library.empty();
    SandboxSpec spec = worker_spec({worker.string(), dir.string(), both ? "both" : "candidate"}, dir, ro);
    // A pool's GPU (`--device cuda:0,1`): the worker's cudaSetDevice takes it from KOPE_CUDA_DEVICE.
    if (q.device_index >= 0) spec.env.push_back("KOPE_CUDA_DEVICE=" + std::to_string(q.device_index));
    ProcessResult pr = run_sandboxed(spec, q.timeout_seconds, lim.max_captured_bytes);
    m = read_worker_result(dir, pr, q);
    m.timer = "cudaEvent";
    m.findings.insert(m.findings.end(), findings.begin(), findings.end());
    return m;
  }

  ProfileResult profile(const MeasureRequest& q) override {
    ProfileResult p;
    p.tool = "ncu";
    const fs::path ncu = find_program("ncu", config_.env, {"/usr/local/cuda/bin"});
    std::string werr;
    const fs::path worker = ncu.empty() ? fs::path() : this->worker(&werr);
    if (ncu.empty()) {
      p.reason = "Nsight Compute (ncu) is not installed";
      return p;
    }
    if (worker.empty() || probe().value("count", 0) == 0) {
      p.reason = worker.empty() ? werr : "no GPU to profile on";
      return p;
    }
    const fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("cuda-prof-" + std::to_string(getpid())) : q.scratch;
    write_worker_job(dir, q, q.candidate.string(), "");
    p.command = {ncu.string(), "--csv", "--target-processes", "all", "--metrics",
                 "gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,"
                 "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed,"
                 "sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,"
                 "launch__registers_per_thread,launch__grid_size,launch__block_size",
                 worker.string(), dir.string(), "correctness"};
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds * 20;
    lim.max_captured_bytes = 4 << 20;
    ProcessResult pr = run_sandboxed(worker_spec(p.command, dir, {ncu.parent_path(), q.candidate.parent_path()}),
                                     lim.wall_seconds, lim.max_captured_bytes);
    p.log = tail_text(pr.out + pr.err, 4000);
    p.counters = parse_ncu_csv(pr.out);
    p.available = !p.counters.empty();
    if (!p.available) p.reason = "ncu reported no metrics (" + pr.describe() + "): " + trim(tail_text(pr.err + pr.out, 600));
    return p;
  }

 private:
  std::string nvcc_version() {
    if (nvcc_version_) return *nvcc_version_;
    nvcc_version_ = "";
    const fs::path nvcc = find_nvcc(config_.env);
    if (nvcc.empty()) return "";
    ProcessLimits lim;
    lim.wall_seconds = 30;
    ProcessResult r = run_process({nvcc.string(), "--version"}, lim, {}, config_.env);
    if (r.ok()) nvcc_version_ = nvcc_release(r.out);
    return *nvcc_version_;
  }

  fs::path worker(std::string* error) {
    if (fs::path w = find_worker(config_.env); !w.empty()) return w;
    if (worker_.empty()) worker_ = build_worker(find_nvcc(config_.env), include_dir_for(config_), work_dir_for(config_), error);
    return worker_;
  }

  fs::path sanitizer() { return find_program("compute-sanitizer", config_.env, {"/usr/local/cuda/bin"}); }

  const json& probe() {
    if (!probe_.is_null()) return probe_;
    std::string werr;
    const fs::path worker = this->worker(&werr);
    if (worker.empty()) {
      probe_ = {{"count", 0}, {"error", "no kope-cuda-worker to probe the GPU with: " + werr}};
      return probe_;
    }
    // Confined like every run of the worker: the GPU's device nodes, the worker's folder, no network.
    const fs::path home = work_dir_for(config_) / "cuda-probe";
    std::error_code ec;
    fs::create_directories(home, ec);
    ProcessResult r = run_sandboxed(worker_spec({worker.string(), "--probe"}, home, {}), 60);
    probe_ = json::parse(r.out, nullptr, false);
    if (probe_.is_discarded() || !probe_.is_object())
      probe_ = {{"count", 0}, {"error", "kope-cuda-worker --probe failed (" + r.describe() + "): " + trim(tail_text(r.err, 300))}};
    return probe_;
  }

  std::string gpu_state() {
    const json& p = probe();
    if (p.value("count", 0) == 0) return "no GPU: " + p.value("error", std::string("none found"));
    return std::to_string(p.value("count", 0)) + " GPU(s), " + p.value("name", "") + " (compute " + p.value("cc", "") + ")";
  }

  // The sandbox a worker (or a tool running it) starts in: the job folder writable, the worker's folder and
  // `ro` readable, the GPU's device nodes bound, the driver's /sys and /proc views (unverified on a GPU here).
  SandboxSpec worker_spec(std::vector<std::string> argv, const fs::path& dir, std::vector<fs::path> ro) {
    WorkerSandbox w;
    w.argv = std::move(argv);
    w.job_dir = dir;
    ro.push_back(fs::path(w.argv[0]).parent_path());
    for (const auto& a : w.argv)
      if (!a.empty() && a[0] == '/' && a != dir.string()) ro.push_back(fs::path(a).parent_path());
    w.ro = std::move(ro);
    w.dev_patterns = cuda_device_patterns();
    w.env = worker_env(config_.env, dir);
    SandboxSpec s = worker_sandbox_spec(w);
    s.ro_paths.push_back("/sys");  // the CUDA driver reads the PCI topology there
    return s;
  }

  DeviceConfig config_;
  std::optional<std::string> nvcc_version_;
  json probe_;
  fs::path worker_;
};

}  // namespace

std::unique_ptr<Device> make_cuda_device(const DeviceConfig& config) { return std::make_unique<CudaDevice>(config); }

}  // namespace kope::device
