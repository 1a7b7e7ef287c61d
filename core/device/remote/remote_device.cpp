// A device on another host: every operation is one kope-remote call over the session's multiplexed SSH
// connection, with its files moved and checked by sha256; memory and records stay on this machine.
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/device/remote.h"
#include "kope/device/remote_agent.h"
#include "kope/device/worker_protocol.h"
#include "kope/base/error.h"
#include "kope/exec/paths.h"
#include "kope/base/fsutil.h"
#include "kope/base/text.h"

using namespace kope::exec;

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

// kope-remote: $KOPE_REMOTE_AGENT, else beside the running executable, else the build tree's.
fs::path local_agent() {
  if (const char* e = std::getenv("KOPE_REMOTE_AGENT"); e && *e) return e;
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && fs::exists(self.parent_path() / "kope-remote")) return self.parent_path() / "kope-remote";
#ifdef KOPE_REMOTE_BUILD_PATH
  return KOPE_REMOTE_BUILD_PATH;
#else
  return "kope-remote";
#endif
}

namespace {

// A local scratch folder removed when it goes out of scope.
struct LocalTemp {
  fs::path path;
  LocalTemp() {
    std::string t = (fs::temp_directory_path() / "kope-remote-XXXXXX").string();
    if (!mkdtemp(t.data())) throw Error("cannot create a temporary folder in " + fs::temp_directory_path().string());
    path = t;
  }
  ~LocalTemp() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

class RemoteDevice : public Device {
 public:
  RemoteDevice(std::string kind, std::string host, DeviceConfig config)
      : kind_(std::move(kind)), host_(std::move(host)), config_(std::move(config)) {}

  std::string name() const override { return kind_ + "@" + host_; }
  std::string kind() const override { return kind_; }

  Availability availability() override {
    try {
      const json& i = info();
      return {i["availability"].value("available", false),
              "on " + host_ + ": " + i["availability"].value("reason", "")};
    } catch (const Error& e) {
      return {false, e.what()};
    }
  }

  Capabilities capabilities() override {
    Capabilities c;
    try {
      const json& j = info()["capabilities"];
      c.language = j.value("language", "");
      c.source_suffix = j.value("source_suffix", ".cpp");
      c.header = j.value("header", "");
      c.can_build = j.value("can_build", false);
      c.can_run = j.value("can_run", false);
      c.can_time = j.value("can_time", false);
      c.profiler = j.value("profiler", false);
      c.sanitizer = j.value("sanitizer", false);
      c.build_modes = j.value("build_modes", std::vector<std::string>{});
    } catch (const Error&) {
    }
    return c;
  }

  Fingerprint fingerprint() override {
    Fingerprint f;
    try {
      f = fingerprint_from_json(info()["fingerprint"]);
    } catch (const Error&) {
    }
    f.device = name();
    return f;
  }

  BuildResult build(const std::string& source, const BuildOptions& o) override {
    BuildResult b;
    try {
      LocalTemp local;
      write_file_atomic(local.path / "source", source);
      write_file_atomic(local.path / "build.json", build_options_json(o).dump());
      const std::string dir = remote_scratch();
      put(local.path / "source", dir + "/source");
      put(local.path / "build.json", dir + "/build.json");
      call("build", dir, o.timeout_seconds + 60);
      ssh().get(dir + "/build_result.json", local.path / "build_result.json");
      cleanup(dir);
      b = build_result_from_json(json::parse(read_file(local.path / "build_result.json", "remote build result")));
    } catch (const Error& e) {
      b.ok = false;
      b.error = std::string("remote build on ") + host_ + " failed: " + e.what();
    }
    return b;
  }

  MeasureResult measure(const MeasureRequest& q) override {
    try {
      LocalTemp local;
      const std::string dir = send_request(q, local.path);
      call("measure", dir, q.timeout_seconds * 4 + 120);
      ssh().get(dir + "/measure.json", local.path / "measure.json");
      json j = json::parse(read_file(local.path / "measure.json", "remote measure result"));
      for (std::size_t k = 0; k < j.value("outputs", std::size_t{0}); ++k) {
        ssh().get(dir + "/" + worker_first_path("", k).string(), worker_first_path(local.path, k));
        ssh().get(dir + "/" + worker_last_path("", k).string(), worker_last_path(local.path, k));
      }
      for (std::size_t k = 0; k < j.value("library_outputs", std::size_t{0}); ++k)
        ssh().get(dir + "/" + worker_library_path("", k).string(), worker_library_path(local.path, k));
      cleanup(dir);
      MeasureResult m = read_measure_result(local.path, q);
      m.timer += m.timer.empty() ? "" : " on " + host_;
      return m;
    } catch (const Error& e) {
      MeasureResult m;
      m.outcome = Outcome::ToolError;
      m.message = std::string("remote measure on ") + host_ + " failed: " + e.what();
      return m;
    }
  }

  ProfileResult profile(const MeasureRequest& q) override {
    try {
      LocalTemp local;
      const std::string dir = send_request(q, local.path);
      call("profile", dir, q.timeout_seconds * 8 + 120);
      ssh().get(dir + "/profile.json", local.path / "profile.json");
      cleanup(dir);
      return profile_result_from_json(json::parse(read_file(local.path / "profile.json", "remote profile")));
    } catch (const Error& e) {
      ProfileResult p;
      p.reason = std::string("remote profile on ") + host_ + " failed: " + e.what();
      return p;
    }
  }

 private:
  SshSession& ssh() {
    if (!ssh_) {
      SshOptions o;
      o.host = host_;
      if (auto extra = env_value(config_.env, "KOPE_SSH_OPTIONS")) {
        std::istringstream in(*extra);
        std::string w;
        while (in >> w) o.extra.push_back(w);
      }
      ssh_ = std::make_unique<SshSession>(o);
    }
    return *ssh_;
  }

  void check(const ProcessResult& r, const std::string& what) {
    if (!r.ok())
      throw Error("ssh " + host_ + ": " + what + " failed (" + r.describe() + "): " + trim(tail_text(r.err + r.out, 800)) +
                  (r.exit_code == 255 ? " (ssh could not connect: check the host, keys and $KOPE_SSH_OPTIONS; BatchMode "
                                        "allows no password prompt)"
                                      : ""));
  }

  void put(const fs::path& local, const std::string& remote) { ssh().put(local, remote); }

  // The remote root ($HOME/.cache/kope-remote), kope-remote and kope-runner installed there by content.
  void ensure_agent() {
    if (!agent_.empty()) return;
    // $KOPE_REMOTE_ROOT (here) names the folder on the host; else the host's $HOME/.cache/kope-remote.
    const std::string root = env_value(config_.env, "KOPE_REMOTE_ROOT").value_or("");
    const std::string dir = root.empty() ? "\"$HOME/.cache/kope-remote\"" : shell_quote(root);
    ProcessResult r = ssh().run("mkdir -p " + dir + " && cd " + dir + " && pwd && uname -m", 60);
    check(r, "preparing the remote folder");
    std::istringstream lines(r.out);
    std::getline(lines, root_);
    std::string arch;
    std::getline(lines, arch);
    // Each binary lives under its own sha256, so a changed build is copied once and old ones stay valid.
    auto install = [&](const fs::path& local, const std::string& name) {
      if (!fs::exists(local)) throw Error("cannot find " + name + " to copy to " + host_ + " (looked at " + local.string() + ")");
      const std::string sha = file_sha256(local);
      const std::string dir = root_ + "/bin-" + sha.substr(0, 16);
      const std::string path = dir + "/" + name;
      // One already in the host's PATH serves when it is byte for byte ours.
      ProcessResult found = ssh().run("command -v " + name + " || true", 60);
      const std::string in_path = trim(found.out);
      if (!in_path.empty() && in_path[0] == '/' && ssh().remote_sha256(in_path) == sha) return in_path;
      if (ssh().remote_sha256(path) != sha) {
        check(ssh().run("mkdir -p " + shell_quote(dir), 60), "creating " + dir);
        ssh().put(local, path);
        check(ssh().run("chmod 755 " + shell_quote(path), 60), "chmod " + path);
      }
      return path;
    };
    const fs::path agent = local_agent();
    agent_ = install(agent, "kope-remote");
    runner_ = install(config_.runner.empty() ? find_runner() : config_.runner, "kope-runner");
    r = ssh().run(shell_quote(agent_) + " --version", 60);
    check(r, "running kope-remote on the host (" + arch + ")");
    if (trim(r.out) != remote_agent_version())
      throw Error("kope-remote on " + host_ + " reports \"" + trim(r.out) + "\", expected \"" + remote_agent_version() + "\"");
  }

  const json& info() {
    if (!info_.is_null()) return info_;
    ensure_agent();
    ProcessResult r = ssh().run(env_prefix() + shell_quote(agent_) + " info " + shell_quote(kind_), 120);
    check(r, "kope-remote info");
    info_ = json::parse(r.out, nullptr, false);
    if (info_.is_discarded() || !info_.contains("availability"))
      throw Error("kope-remote info on " + host_ + " printed no device description: " + tail_text(r.out, 300));
    return info_;
  }

  std::string env_prefix() const {
    return "KOPE_RUNNER=" + shell_quote(runner_) + " KOPE_REMOTE_WORK=" + shell_quote(root_ + "/work") + " ";
  }

  std::string remote_scratch() {
    ensure_agent();
    ProcessResult r = ssh().run("mkdir -p " + shell_quote(root_ + "/jobs") + " && mktemp -d " + shell_quote(root_ + "/jobs/job.XXXXXX"), 60);
    check(r, "creating a scratch folder");
    return trim(r.out);
  }

  void call(const std::string& op, const std::string& dir, double timeout) {
    ProcessResult r = ssh().run(env_prefix() + shell_quote(agent_) + " " + op + " " + shell_quote(kind_) + " " + shell_quote(dir), timeout);
    check(r, "kope-remote " + op);
    last_log_ = r.err;
  }

  void cleanup(const std::string& dir) { ssh().run("rm -rf " + shell_quote(dir), 60); }

  std::string send_request(const MeasureRequest& q, const fs::path& local) {
    write_file_atomic(local / "request.json", measure_request_json(q).dump());
    const std::string dir = remote_scratch();
    put(local / "request.json", dir + "/request.json");
    for (std::size_t i = 0; i < q.inputs.size(); ++i) {
      write_file_atomic(worker_input_path(local, i), q.inputs[i]);
      put(worker_input_path(local, i), dir + "/" + worker_input_path("", i).string());
    }
    return dir;
  }

  std::string kind_, host_;
  DeviceConfig config_;
  std::unique_ptr<SshSession> ssh_;
  std::string root_, agent_, runner_, last_log_;
  json info_;
};

}  // namespace

std::unique_ptr<Device> make_remote_device(const std::string& kind, const std::string& host, const DeviceConfig& config) {
  return std::make_unique<RemoteDevice>(kind, host, config);
}

}  // namespace kope::device
