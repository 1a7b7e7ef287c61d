// The Ascend device: bisheng direct-launch builds (or an msOpGen operator project), runs through kope's Ascend
// worker, kernel-only times and counters from `msprof op`. Never run on a real board: see README "Ascend".
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include <nlohmann/json.hpp>

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

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

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

class AscendDevice : public Device {
 public:
  explicit AscendDevice(DeviceConfig c) : config_(std::move(c)) {}
  std::string name() const override { return "ascend"; }
  std::string kind() const override { return "ascend"; }

  Availability availability() override {
    const Toolkit& tk = toolkit();
    if (!tk.found) return {false, tk.reason};
    if (tk.bisheng.empty()) return {false, tk.reason + ", but without bisheng (compiler/ccec_compiler/bin)"};
    return {true, tk.reason + "; " + board_state()};
  }

  Capabilities capabilities() override {
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

  Fingerprint fingerprint() override {
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

  BuildResult build(const std::string& source, const BuildOptions& o) override {
    const std::string mode = o.mode.empty() ? "direct" : o.mode;
    if (mode == "direct") return build_direct(source, o);
    if (mode == "msopgen") return build_msopgen(source, o);
    if (mode == "cpu-twin") return build_twin(source, o);
    BuildResult b;
    b.error = "unknown Ascend build mode \"" + mode + "\" (direct, msopgen, cpu-twin)";
    return b;
  }

  MeasureResult measure(const MeasureRequest& q) override {
    MeasureResult m;
    m.timer = "msprof op Task Duration";
    const Toolkit& tk = toolkit();
    auto tool_error = [&](const std::string& why) {
      m.outcome = Outcome::ToolError;
      m.message = why;
      return m;
    };
    if (fs::exists(twin_file(q.candidate))) return measure_twin(q);
    if (healthy_chips().empty())
      return tool_error("no NPU to run on: " + board_state() +
                        (toolkit().tikicpulib_cmake.empty() ? "" : " (build with mode cpu-twin for a functional check on the CPU)"));
    const std::string cand_entry = trim(read_file_or_empty(entry_file(q.candidate)));
    if (cand_entry.empty())
      return tool_error(q.candidate.string() + " is not a direct-launch build (measuring msOpGen packages is not built yet)");
    const std::string base_entry = q.baseline.empty() ? "" : trim(read_file_or_empty(entry_file(q.baseline)));
    std::string werr;
    const fs::path worker = ensure_worker(&werr);
    if (worker.empty()) return tool_error(werr);
    const fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("ascend-job-" + std::to_string(getpid())) : q.scratch;
    write_worker_job(dir, q, q.candidate.string(), q.baseline.string());

    // 1. A plain run: outputs, device exceptions, the input check.
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds;
    lim.max_captured_bytes = 256 << 10;
    ProcessResult pr = run_worker({worker.string(), dir.string(), "both"}, dir, q, lim);
    m = read_worker_result(dir, pr, q);
    m.timer = "msprof op Task Duration";
    if (!m.ok()) {
      explain_acl_failure(m, pr);
      return m;
    }
    if (tk.msprof.empty()) {
      m.message = "functional run only: msprof is not installed, so there are no times";
      return m;
    }
    // 2. Kernel-only times: one msprof op run per side, each matching its kernel by name.
    for (const auto& [entry, role, out] : {std::tuple{cand_entry, std::string("candidate"), &m.candidate_ns},
                                           std::tuple{base_entry, std::string("baseline"), &m.baseline_ns}}) {
      if (entry.empty()) continue;
      std::string why;
      auto times = msprof_times(worker, dir, role, entry, q, &why, &m.log);
      if (!times) return tool_error(why);
      *out = *times;
    }
    m.order.clear();
    return m;
  }

  ProfileResult profile(const MeasureRequest& q) override {
    ProfileResult p;
    p.tool = "msprof op";
    const Toolkit& tk = toolkit();
    if (tk.msprof.empty()) {
      p.reason = "msprof is not installed with the toolkit (" + tk.reason + ")";
      return p;
    }
    if (healthy_chips().empty()) {
      p.reason = "no NPU to profile on: " + board_state();
      return p;
    }
    const std::string entry = trim(read_file_or_empty(entry_file(q.candidate)));
    std::string werr;
    const fs::path worker = ensure_worker(&werr);
    if (worker.empty() || entry.empty()) {
      p.reason = worker.empty() ? werr : q.candidate.string() + " is not a direct-launch build";
      return p;
    }
    const fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("ascend-prof-" + std::to_string(getpid())) : q.scratch;
    MeasureRequest one = q;
    one.warmup = 0;
    one.reps = 1;
    one.baseline.clear();
    write_worker_job(dir, one, q.candidate.string(), "");
    const fs::path out = dir / "msprof-profile";
    fs::create_directories(out);
    p.command = msprof_op_command(tk.msprof, entry, 1, q.warmup, out, {worker.string(), dir.string(), "candidate"});
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds * 4;
    ProcessResult pr = run_worker(p.command, dir, q, lim);
    p.log = tail_text(pr.out + pr.err, 4000);
    const fs::path opprof = newest_opprof_dir(out);
    auto dirs = opprof.empty() ? std::vector<fs::path>{} : opprof_result_dirs(opprof);
    if (dirs.empty()) {
      p.reason = "msprof op left no OpBasicInfo.csv for kernel \"" + entry + "\" (" + pr.describe() + "): " + trim(tail_text(pr.out + pr.err, 600));
      return p;
    }
    for (const auto& info : read_op_basic_info_in(dirs.front())) {
      p.counters.push_back({"OpBasicInfo", "Task Duration", info.task_duration_us, "us"});
      p.counters.push_back({"OpBasicInfo", "Block Dim", static_cast<double>(info.block_dim), ""});
      if (info.current_freq_mhz) p.counters.push_back({"OpBasicInfo", "Current Freq", *info.current_freq_mhz, "MHz"});
    }
    auto more = read_opprof_counters(dirs.front());
    p.counters.insert(p.counters.end(), more.begin(), more.end());
    p.available = true;
    return p;
  }

  std::optional<double> floor_ns(const ConcreteCase& c) override {
    const double bw = nominal_bandwidth_gbps(soc_version());
    if (bw <= 0) return std::nullopt;
    return case_bytes(c) / bw;
  }

 private:
  const Toolkit& toolkit() {
    if (!tk_) tk_ = find_toolkit(config_.env);
    return *tk_;
  }

  // What set_env.sh left (it was sourced on top of config_.env), else config_.env itself.
  std::vector<std::string> tool_env() { return toolkit().found ? toolkit().env : config_.env; }

  // A worker run (or msprof op running one) in the sandbox: the job folder writable; the worker, the artifacts
  // and the toolkit folders the environment names readable; the NPU's device nodes bound; no network.
  ProcessResult run_worker(const std::vector<std::string>& argv, const fs::path& dir, const MeasureRequest& q,
                           const ProcessLimits& lim) {
    // Sandboxed by default; KOPE_ASCEND_SANDBOX=0 runs it unconfined (own process group, wall limit), for a
    // board whose runtime needs more than the spec below gives, and the report says so.
    if (const char* e = std::getenv("KOPE_ASCEND_SANDBOX"); e && std::string(e) == "0")
      return run_process(argv, lim, dir, tool_env());
    WorkerSandbox w;
    w.argv = argv;
    if (!argv.empty() && fs::path(argv[0]).is_relative()) {
      const fs::path found = find_program(argv[0], tool_env());
      if (!found.empty()) w.argv[0] = found.string();
    }
    w.job_dir = dir;
    for (const auto& a : w.argv)
      if (!a.empty() && a[0] == '/' && a != dir.string() && !fs::path(a).lexically_normal().string().starts_with(dir.string()))
        w.ro.push_back(fs::path(a).parent_path());
    for (const auto* so : {&q.candidate, &q.baseline})
      if (!so->empty()) w.ro.push_back(so->parent_path());
    if (!toolkit().home.empty()) w.ro.push_back(toolkit().home);
    w.dev_patterns = ascend_device_patterns();
    w.env = tool_env();
    w.memory_bytes = lim.address_space_bytes;
    return run_sandboxed(worker_sandbox_spec(w), lim.wall_seconds, lim.max_captured_bytes);
  }

  const NpuSmiInfo& smi() {
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

  std::vector<NpuChip> healthy_chips() {
    std::vector<NpuChip> out;
    for (const auto& c : smi().chips)
      if (c.health == "OK" || c.health == "Warning") out.push_back(c);
    return out;
  }

  std::string board_state() {
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

  std::string soc_version() {
    if (auto v = env_value(config_.env, "KOPE_ASCEND_SOC"); v && !v->empty()) return *v;
    auto ok = healthy_chips();
    if (!ok.empty()) return soc_version_for(ok[0].name);
    return "Ascend910B1";  // the documented default when no board says otherwise
  }

  std::string npu_arch() {
    if (auto v = env_value(config_.env, "KOPE_ASCEND_NPU_ARCH"); v && !v->empty()) return *v;
    std::string a = npu_arch_for(soc_version());
    return a.empty() ? "dav-2201" : a;
  }

  static fs::path entry_file(const fs::path& artifact) { return fs::path(artifact.string() + ".entry"); }

  BuildResult build_direct(const std::string& source, const BuildOptions& o) {
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

  static void finish_build(BuildResult& b, const ProcessResult& pr, const std::string& tool) {
    b.seconds += pr.wall_seconds;
    b.log += pr.err + pr.out;
    b.diagnostics = parse_bisheng_output(b.log);
    if (pr.ok()) {
      b.ok = true;
      return;
    }
    b.ok = false;
    if (!pr.started) b.error = tool + " could not be started: " + pr.error;
    else if (pr.timed_out) b.error = tool + " " + pr.describe();
    else {
      b.error = "compilation failed (" + tool + ": " + pr.describe() + ")";
      for (const auto& d : b.diagnostics)
        if (d.severity == "error" || d.severity == "fatal error") {
          b.error += ": " + d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
          break;
        }
    }
  }

  BuildResult build_msopgen(const std::string& source, const BuildOptions& o) {
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

  BuildResult build_twin(const std::string& source, const BuildOptions& o) {
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

  static fs::path twin_file(const fs::path& artifact) { return fs::path(artifact.string() + ".twin"); }

  // kope's worker built for the CPU twin: the same source, KOPE_ASCEND_TWIN, linked with tikicpulib::<SoC>.
  fs::path ensure_twin_worker(const std::string& soc, std::string* error) {
    std::string src;
    for (const auto& f : embedded_files())
      if (f.path == "ascend/kope_ascend_worker.cpp") src = f.text;
    const Toolkit& tk = toolkit();
    const std::string key = sha256_hex(src + '\0' + soc + '\0' + tk.version + '\0' + tk.home.string()).substr(0, 24);
    const fs::path dir = work_dir_for(config_) / ("ascend-twin-worker-" + key);
    const fs::path exe = dir / "build/kope-ascend-twin-worker";
    if (fs::exists(exe)) return exe;
    fs::create_directories(dir);
    write_file_atomic(dir / "kope_ascend_worker.cpp", src);
    write_file_atomic(dir / "CMakeLists.txt",
                      "cmake_minimum_required(VERSION 3.16)\nproject(kope_twin_worker CXX)\n"
                      "set(CMAKE_CXX_STANDARD 17)\n"
                      "list(APPEND CMAKE_PREFIX_PATH \"" + tk.tikicpulib_cmake.string() + "\")\n"
                      "find_package(tikicpulib REQUIRED)\n"
                      "add_executable(kope-ascend-twin-worker kope_ascend_worker.cpp)\n"
                      "target_include_directories(kope-ascend-twin-worker PRIVATE \"" + include_dir_for(config_).string() + "\")\n"
                      "target_compile_definitions(kope-ascend-twin-worker PRIVATE KOPE_ASCEND_TWIN ASCENDC_CPU_DEBUG)\n"
                      "target_link_libraries(kope-ascend-twin-worker PRIVATE tikicpulib::${SOC_VERSION} ${CMAKE_DL_LIBS})\n");
    ProcessLimits lim;
    lim.wall_seconds = 300;
    lim.max_captured_bytes = 256 << 10;
    ProcessResult pr = run_process({"cmake", "-S", dir.string(), "-B", (dir / "build").string(), "-DSOC_VERSION=" + soc}, lim, dir, tool_env());
    if (pr.ok()) pr = run_process({"cmake", "--build", (dir / "build").string()}, lim, dir, tool_env());
    if (!pr.ok() || !fs::exists(exe)) {
      *error = "cannot build kope's Ascend worker for the CPU twin (" + pr.describe() + "): " + trim(tail_text(pr.out + pr.err, 800));
      return {};
    }
    return exe;
  }

  // No board: the CPU twin's functional run, outputs only.
  MeasureResult measure_twin(const MeasureRequest& q) {
    MeasureResult m;
    m.timer = "none (CPU twin: functional only)";
    std::string werr;
    const fs::path worker = ensure_twin_worker(trim(read_file_or_empty(twin_file(q.candidate))), &werr);
    if (worker.empty()) {
      m.outcome = Outcome::ToolError;
      m.message = werr;
      return m;
    }
    const fs::path dir = q.scratch.empty() ? work_dir_for(config_) / ("ascend-twin-job-" + std::to_string(getpid())) : q.scratch;
    MeasureRequest one = q;
    one.warmup = 0;
    one.reps = 1;
    write_worker_job(dir, one, q.candidate.string(), "");
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds;
    lim.address_space_bytes = q.host_memory_bytes;
    lim.max_captured_bytes = 256 << 10;
    ProcessResult pr = run_worker({worker.string(), dir.string(), "candidate"}, dir, q, lim);
    m = read_worker_result(dir, pr, q);
    m.timer = "none (CPU twin: functional only)";
    m.candidate_ns.clear();
    m.baseline_ns.clear();
    m.order.clear();
    return m;
  }

  fs::path ensure_worker(std::string* error) {
    std::string src;
    for (const auto& f : embedded_files())
      if (f.path == "ascend/kope_ascend_worker.cpp") src = f.text;
    const Toolkit& tk = toolkit();
    const std::string key = sha256_hex(src + '\0' + tk.version + '\0' + tk.home.string()).substr(0, 24);
    const fs::path dir = work_dir_for(config_) / ("ascend-worker-" + key);
    const fs::path exe = dir / "kope-ascend-worker";
    if (fs::exists(exe)) return exe;
    fs::create_directories(dir);
    write_file_atomic(dir / "kope_ascend_worker.cpp", src);
    // The host side needs no -xcce; bisheng compiles it as clang++ (unverified: g++ works as well).
    std::vector<std::string> cmd = {tk.bisheng.string(), "-O2", "-std=c++17", "-I" + include_dir_for(config_).string(),
                                    "-I" + (tk.home / "include").string(), (dir / "kope_ascend_worker.cpp").string(),
                                    "-L" + (tk.home / "lib64").string(), "-lascendcl", "-ldl", "-o", (dir / "worker.tmp").string()};
    ProcessLimits lim;
    lim.wall_seconds = 300;
    ProcessResult pr = run_process(cmd, lim, dir, tool_env());
    std::error_code ec;
    if (!pr.ok() || (fs::rename(dir / "worker.tmp", exe, ec), ec)) {
      *error = "cannot build kope's Ascend worker (" + pr.describe() + "): " + trim(tail_text(pr.err + pr.out, 800));
      return {};
    }
    return exe;
  }

  void explain_acl_failure(MeasureResult& m, const ProcessResult& pr) {
    std::string log = pr.err + pr.out;
    std::optional<int> code = find_acl_error_code(m.message + "\n" + log);
    std::string inner = inner_error_message(log);
    if (inner.empty()) inner = inner_error_message(newest_plog());
    if (code) {
      if (auto e = acl_error(*code)) {
        m.outcome = e->outcome;
        m.message += " [" + e->name + "]";
      }
    }
    if (!inner.empty()) m.message += "; " + inner;
  }

  std::string newest_plog() {
    std::optional<std::string> root = env_value(tool_env(), "ASCEND_PROCESS_LOG_PATH");
    if (!root) root = env_value(tool_env(), "ASCEND_WORK_PATH");
    if (!root) root = env_value(tool_env(), "HOME").value_or("/root") + "/ascend/log";
    fs::path best;
    fs::file_time_type best_t{};
    std::error_code ec;
    for (const char* sub : {"debug/plog", "run/plog"})
      for (const auto& e : fs::directory_iterator(fs::path(*root) / sub, ec)) {
        if (!e.is_regular_file() || e.path().filename().string().rfind("plog-", 0) != 0) continue;
        auto t = e.last_write_time(ec);
        if (best.empty() || t > best_t) best = e.path(), best_t = t;
      }
    return best.empty() ? "" : tail_text(read_file_or_empty(best), 64 << 10);
  }

  static std::vector<OpBasicInfo> read_op_basic_info_in(const fs::path& dir) {
    std::vector<OpBasicInfo> all;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (n.rfind("OpBasicInfo", 0) == 0 && e.path().extension() == ".csv") {
        auto rows = read_op_basic_info(e.path());
        all.insert(all.end(), rows.begin(), rows.end());
      }
    }
    return all;
  }

  std::optional<std::vector<double>> msprof_times(const fs::path& worker, const fs::path& dir, const std::string& role,
                                                  const std::string& entry, const MeasureRequest& q, std::string* why,
                                                  std::string* log) {
    const Toolkit& tk = toolkit();
    const fs::path out = dir / ("msprof-" + role);
    std::error_code ec;
    fs::remove_all(out, ec);
    fs::create_directories(out);
    auto cmd = msprof_op_command(tk.msprof, entry, q.reps, q.warmup, out, {worker.string(), dir.string(), role});
    ProcessLimits lim;
    lim.wall_seconds = q.timeout_seconds * 4;
    lim.max_captured_bytes = 256 << 10;
    ProcessResult pr = run_worker(cmd, dir, q, lim);
    *log += tail_text(pr.out + pr.err, 2000);
    const fs::path opprof = newest_opprof_dir(out);
    std::vector<double> ns;
    if (!opprof.empty())
      for (const auto& d : opprof_result_dirs(opprof))
        for (const auto& info : read_op_basic_info_in(d))
          if (info.op_name.rfind(entry, 0) == 0 || info.op_name.empty()) ns.push_back(info.task_duration_us * 1000.0);
    if (ns.empty()) {
      *why = "msprof op timed no kernel named \"" + entry + "\" for the " + role + " (" + pr.describe() + "): " +
             trim(tail_text(pr.out + pr.err, 600));
      return std::nullopt;
    }
    return ns;
  }

  DeviceConfig config_;
  std::optional<Toolkit> tk_;
  std::optional<NpuSmiInfo> smi_;
};

}  // namespace

std::unique_ptr<Device> make_ascend_device(const DeviceConfig& config) { return std::make_unique<AscendDevice>(config); }

}  // namespace kope::device
