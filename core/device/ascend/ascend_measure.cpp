// The Ascend device's runs: kope's Ascend worker in its sandbox on the board (or the CPU twin's functional run),
// its outputs and device exceptions, and kernel-only times and counters from `msprof op`.
#include <unistd.h>

#include "ascend_device_internal.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/base/sha256.h"
#include "kope/device/ascend.h"
#include "kope/device/worker_protocol.h"
#include "kope/device/worker_sandbox.h"

namespace kope::device {

namespace fs = std::filesystem;
using namespace ascend;

MeasureResult AscendDevice::measure(const MeasureRequest& q) {
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
  // 3. The library's (when it ran correctly above): its own msprof op run; a failure is the library's alone.
  if (!q.library.empty() && !m.library_outputs.empty()) {
    std::string why;
    auto times = msprof_times(worker, dir, "library", "", q, &why, &m.log);
    if (times) m.library_ns = *times;
    else m.library_message = why;
  }
  m.order.clear();
  return m;
}

ProfileResult AscendDevice::profile(const MeasureRequest& q) {
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

// A worker run (or msprof op running one) in the sandbox: the job folder writable; the worker, the artifacts
// and the toolkit folders the environment names readable; the NPU's device nodes bound; no network.
ProcessResult AscendDevice::run_worker(const std::vector<std::string>& argv, const fs::path& dir, const MeasureRequest& q,
                                       const ProcessLimits& lim) {
  // Sandboxed by default; KOPE_ASCEND_SANDBOX=0 runs it unconfined (own process group, wall limit), for a
  // board whose runtime needs more than the spec below gives, and the report says so.
  // A pool's NPU (`--device ascend:0-7`): the worker's aclrtSetDevice takes it from KOPE_ASCEND_DEVICE.
  std::vector<std::string> env = tool_env();
  if (q.device_index >= 0) env.push_back("KOPE_ASCEND_DEVICE=" + std::to_string(q.device_index));
  if (const char* e = std::getenv("KOPE_ASCEND_SANDBOX"); e && std::string(e) == "0")
    return run_process(argv, lim, dir, env);
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
  for (const auto* so : {&q.candidate, &q.baseline, &q.library})
    if (!so->empty()) w.ro.push_back(so->parent_path());
  if (!toolkit().home.empty()) w.ro.push_back(toolkit().home);
  w.dev_patterns = ascend_device_patterns();
  w.env = env;
  w.memory_bytes = lim.address_space_bytes;
  return run_sandboxed(worker_sandbox_spec(w), lim.wall_seconds, lim.max_captured_bytes);
}

// kope's worker built for the CPU twin: the same source, KOPE_ASCEND_TWIN, linked with tikicpulib::<SoC>.
fs::path AscendDevice::ensure_twin_worker(const std::string& soc, std::string* error) {
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
MeasureResult AscendDevice::measure_twin(const MeasureRequest& q) {
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
  if (!q.library.empty()) m.library_message = "not run on the CPU twin: the aclnn operators need a board";
  return m;
}

fs::path AscendDevice::ensure_worker(std::string* error) {
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

void AscendDevice::explain_acl_failure(MeasureResult& m, const ProcessResult& pr) {
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

std::string AscendDevice::newest_plog() {
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

std::vector<OpBasicInfo> AscendDevice::read_op_basic_info_in(const fs::path& dir) {
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

std::optional<std::vector<double>> AscendDevice::msprof_times(const fs::path& worker, const fs::path& dir, const std::string& role,
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

}  // namespace kope::device
