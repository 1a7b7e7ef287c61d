#include "kope/device/worker_sandbox.h"

#include <sys/wait.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "kope/device/device.h"
#include "kope/base/error.h"

using namespace kope::exec;

namespace kope::device {

namespace fs = std::filesystem;

std::vector<std::string> cuda_device_patterns() {
  return {"/dev/nvidia*", "/dev/nvidiactl", "/dev/nvidia-uvm*", "/dev/nvidia-caps"};
}

std::vector<std::string> ascend_device_patterns() {
  return {"/dev/davinci*", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"};
}

std::vector<fs::path> device_nodes(const std::vector<std::string>& patterns) {
  std::set<fs::path> out;
  std::error_code ec;
  for (const std::string& p : patterns) {
    if (p.empty() || p.back() != '*') {
      if (fs::exists(p, ec)) out.insert(p);
      continue;
    }
    const fs::path pat(p.substr(0, p.size() - 1));
    const std::string prefix = pat.filename().string();
    for (const auto& e : fs::directory_iterator(pat.parent_path(), ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0) out.insert(e.path());
  }
  return {out.begin(), out.end()};
}

namespace {

// A system folder the sandbox already shows (or must never bind): not worth naming again.
bool system_path(const fs::path& p) {
  const std::string s = p.lexically_normal().string();
  if (s == "/" || s.empty()) return true;
  for (const char* top : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sys", "/dev"})
    if (s == top || s.rfind(std::string(top) + "/", 0) == 0) return true;
  return false;
}

}  // namespace

std::vector<std::string> worker_env(const std::vector<std::string>& overrides, const fs::path& home) {
  std::vector<std::string> env = {"LC_ALL=C", "HOME=" + home.string()};
  for (const char* name : {"PATH", "LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"})
    if (auto v = env_value(overrides, name)) env.push_back(std::string(name) + "=" + *v);
  if (!env_value(overrides, "PATH")) env.push_back("PATH=/usr/local/cuda/bin:/usr/bin:/bin");
  for (const std::string& e : overrides) {
    const std::string name = e.substr(0, e.find('='));
    bool have = false;
    for (const std::string& x : env) have = have || x.substr(0, x.find('=')) == name;
    if (!have) env.push_back(e);
  }
  return env;
}

SandboxSpec worker_sandbox_spec(const WorkerSandbox& w) {
  SandboxSpec s;
  s.argv = w.argv;
  s.env = w.env;
  s.cwd = w.job_dir;
  s.rw_paths = {w.job_dir};
  s.network = false;
  s.memory_bytes = w.memory_bytes;
  s.max_processes = 512;  // device runtimes start threads of their own
  s.max_file_bytes = uint64_t{8} << 30;
  std::set<fs::path> ro;
  std::error_code ec;
  auto add = [&](const fs::path& p) {
    if (p.empty() || !p.is_absolute() || system_path(p) || !fs::exists(p, ec)) return;
    const fs::path n = p.lexically_normal();
    if (n == w.job_dir.lexically_normal()) return;
    ro.insert(n);
  };
  for (const auto& p : w.ro) add(p);
  // Programs and libraries reached through links (a toolkit's latest -> 8.0.RC1, a tool linked from elsewhere):
  // what the link points to must be there too, or exec finds nothing.
  for (const auto& a : w.argv)
    if (!a.empty() && a[0] == '/')
      if (const fs::path real = fs::weakly_canonical(a, ec); !ec && real != fs::path(a).lexically_normal())
        add(fs::is_directory(real, ec) ? real : real.parent_path());
  for (const auto& p : std::set<fs::path>(ro))
    if (const fs::path real = fs::weakly_canonical(p, ec); !ec && real != p) add(real);
  for (const std::string& e : w.env) {
    const auto eq = e.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = e.substr(0, eq), value = e.substr(eq + 1);
    const bool lists = name == "PATH" || name == "LD_LIBRARY_PATH";
    const bool named = name.rfind("ASCEND_", 0) == 0 || name.rfind("CUDA_", 0) == 0 ||
                       (name.size() > 5 && (name.ends_with("_HOME") || name.ends_with("_PATH")));
    if (!lists && !named) continue;
    std::stringstream ss(value);
    for (std::string part; std::getline(ss, part, ':');) add(part);
  }
  s.ro_paths.assign(ro.begin(), ro.end());
  s.dev_paths = device_nodes(w.dev_patterns);
  return s;
}

ProcessResult run_sandboxed(const SandboxSpec& spec, double wall_seconds, std::size_t max_captured_bytes) {
  ProcessResult pr;
  SandboxRun r;
  try {
    r = sandbox_run(spec, wall_seconds, max_captured_bytes);
  } catch (const Error& e) {
    r.started = false;
    r.error = e.what();
  }
  pr.started = r.started;
  pr.timed_out = r.timed_out;
  pr.exit_code = r.exit_code;
  pr.term_signal = r.term_signal;
  pr.out = std::move(r.out);
  pr.err = std::move(r.err);
  pr.wall_seconds = r.wall_seconds;
  if (!r.started) pr.error = "the sandbox could not start " + (spec.argv.empty() ? std::string("?") : spec.argv[0]) + ": " + r.error;
  return pr;
}

}  // namespace kope::device
