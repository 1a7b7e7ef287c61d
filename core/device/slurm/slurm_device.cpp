// slurm:KIND: kernels build here with the local KIND device; each measurement (and profile, and the node's
// description) is one Slurm batch job running kope-remote on a node, from a folder the nodes share. How the job
// ended is Slurm's word (scontrol, sacct); what the kernel did is only ever read from the agent's own files.
#include <unistd.h>

#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/device/remote.h"
#include "kope/device/remote_agent.h"
#include "kope/device/worker_protocol.h"
#include "kope/exec/paths.h"
#include "slurm_internal.h"

namespace kope::device {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// One job's folder on the shared filesystem, removed when it goes out of scope.
struct JobFolder {
  fs::path path;
  explicit JobFolder(const fs::path& root) {
    std::error_code ec;
    fs::create_directories(root / "jobs", ec);
    std::string t = (root / "jobs" / "job.XXXXXX").string();
    if (!mkdtemp(t.data())) throw EnvError("cannot create a Slurm job folder in " + (root / "jobs").string());
    path = t;
  }
  ~JobFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The job's script: kope-remote on the node, told where kope-runner and its work folder are.
void write_script(const fs::path& dir, const std::string& agent, const std::string& runner, const fs::path& work,
                  const std::string& args) {
  write_file_atomic(dir / "job.sh", "#!/bin/sh\n# kope: one kope-remote call on a node; kope reads what it leaves here.\n"
                                    "export KOPE_RUNNER=" + shell_quote(runner) + " KOPE_REMOTE_WORK=" +
                                        shell_quote(work.string()) + "\nexec " + shell_quote(agent) + " " + args + "\n");
  fs::permissions(dir / "job.sh", fs::perms::owner_all, fs::perm_options::add);
}

std::string text_tail(const fs::path& file, std::size_t n) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return "";
  try {
    std::string t = read_file(file, "job output");
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    return tail_text(t, n);
  } catch (const Error&) {
    return "";
  }
}

class SlurmDevice : public Device {
 public:
  SlurmDevice(std::string kind, SlurmOptions options, DeviceConfig config)
      : kind_(std::move(kind)), config_(std::move(config)), cluster_(std::move(options), config_.env),
        local_(make_device(kind_, config_)) {}

  std::string name() const override { return "slurm:" + kind_; }
  std::string kind() const override { return kind_; }

  Availability availability() override {
    if (const std::string m = cluster_.missing_tools(); !m.empty()) return {false, m};
    if (!local_->capabilities().can_build)
      return {false, "cannot build " + kind_ + " kernels here (they build here and run on a node): " +
                         local_->availability().reason};
    if (const std::string r = cluster_.refused("kope-check"); !r.empty())
      return {false, "the cluster does not take kope's jobs: " + r};
    std::string node;
    try {
      const json a = info(&node).value("availability", json::object());
      if (!a.value("available", false)) return {false, "on Slurm node " + node + ": " + a.value("reason", "")};
    } catch (const Error& e) {
      return {false, std::string("no node of the cluster described itself: ") + e.what()};
    }
    const SlurmOptions& o = cluster_.options();
    return {true, "Slurm " + (o.partition.empty() ? std::string("default partition") : "partition " + o.partition) +
                      (o.gres.empty() ? "" : ", --gres=" + o.gres) + " (node " + node + "); builds here, measures "
                      "on a node from " + root().string()};
  }

  Capabilities capabilities() override;
  Fingerprint fingerprint() override;

  BuildResult build(const std::string& source, const BuildOptions& o) override { return local_->build(source, o); }

  MeasureResult measure(const MeasureRequest& q) override {
    try {
      JobFolder job(root());
      send_request(q, job.path);
      const SlurmJob j = run_job("measure", job.path, q.timeout_seconds * 4 + 120, q.cancel);
      if (const std::string why = not_finished(j, job.path); !why.empty()) {
        MeasureResult m = tool_error(why);
        // The cluster lost the job: this measurement only, not the device and not the kernel.
        if (!j.cancelled && !j.end.agent_finished()) m.outcome = Outcome::Infrastructure;
        return m;
      }
      MeasureResult m = read_measure_result(job.path, q);
      m.timer += (m.timer.empty() ? "" : " ") + std::string("on ") + j.node + " (Slurm job " + j.id + ")";
      return m;
    } catch (const Error& e) {
      return tool_error(std::string("Slurm: ") + e.what());
    }
  }

  ProfileResult profile(const MeasureRequest& q) override {
    ProfileResult p;
    try {
      JobFolder job(root());
      send_request(q, job.path);
      const SlurmJob j = run_job("profile", job.path, q.timeout_seconds * 8 + 120, q.cancel);
      if (const std::string why = not_finished(j, job.path); !why.empty()) {
        p.reason = why;
        return p;
      }
      return profile_result_from_json(json::parse(read_file(job.path / "profile.json", "profile from the node")));
    } catch (const std::exception& e) {
      p.reason = std::string("Slurm: ") + e.what();
      return p;
    }
  }

 private:
  static MeasureResult tool_error(const std::string& why) {
    MeasureResult m;
    m.outcome = Outcome::ToolError;
    m.message = why;
    return m;
  }

  fs::path root() const {
    const fs::path& d = cluster_.options().dir;
    return d.empty() ? work_dir_for(config_) / "slurm" : d;
  }

  // kope-remote and kope-runner in the shared folder, each under its sha256 so a new build is copied once.
  void ensure_agent();
  const json& info(std::string* node = nullptr);
  SlurmJob run_job(const std::string& op, const fs::path& dir, double limit_seconds, const CancelToken* cancel);
  void send_request(const MeasureRequest& q, const fs::path& dir) const;
  // "" when the agent ran to its end and its files say the rest; else why nothing can be said of the kernel.
  static std::string not_finished(const SlurmJob& j, const fs::path& dir);

  std::string kind_;
  DeviceConfig config_;
  SlurmCluster cluster_;
  std::unique_ptr<Device> local_;
  std::mutex mu_;
  std::string agent_, runner_;
};

void SlurmDevice::ensure_agent() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!agent_.empty()) return;
  auto install = [&](const fs::path& local, const std::string& name) {
    if (!fs::exists(local)) throw EnvError("cannot find " + name + " to run on the nodes (looked at " + local.string() + ")");
    const fs::path dir = root() / ("bin-" + file_sha256(local).substr(0, 16));
    const fs::path path = dir / name;
    if (!fs::exists(path)) {
      fs::create_directories(dir);
      const fs::path tmp = dir / (name + ".tmp" + std::to_string(getpid()));
      fs::copy_file(local, tmp, fs::copy_options::overwrite_existing);
      fs::permissions(tmp, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);
      fs::rename(tmp, path);
    }
    return path.string();
  };
  try {
    runner_ = install(config_.runner.empty() ? exec::find_runner() : config_.runner, "kope-runner");
    agent_ = install(local_agent(), "kope-remote");
  } catch (const fs::filesystem_error& e) {
    throw EnvError("cannot put kope-remote in the shared Slurm folder " + root().string() + ": " + e.what());
  }
}

SlurmJob SlurmDevice::run_job(const std::string& op, const fs::path& dir, double limit_seconds,
                              const CancelToken* cancel) {
  ensure_agent();
  std::string args = shell_quote(op) + " " + shell_quote(kind_);
  if (op != "info") args += " " + shell_quote(dir.string());
  write_script(dir, agent_, runner_, root() / "work", args);
  return cluster_.run(dir / "job.sh", dir, "kope-" + op, limit_seconds, cancel);
}

void SlurmDevice::send_request(const MeasureRequest& q, const fs::path& dir) const {
  // The artifacts travel in the job's folder: the node sees that folder, not necessarily this machine's builds.
  MeasureRequest sent = q;
  auto carry = [&](const fs::path& artifact, const std::string& name) -> fs::path {
    if (artifact.empty()) return {};
    const fs::path to = dir / (name + artifact.extension().string());
    fs::copy(artifact, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    return to;
  };
  sent.candidate = carry(q.candidate, "candidate");
  sent.baseline = carry(q.baseline, "baseline");
  write_file_atomic(dir / "request.json", measure_request_json(sent).dump());
  for (std::size_t i = 0; i < q.inputs.size(); ++i) write_file_atomic(worker_input_path(dir, i), q.inputs[i]);
}

std::string SlurmDevice::not_finished(const SlurmJob& j, const fs::path& dir) {
  const std::string where = "Slurm job " + j.id + (j.node.empty() || j.node == "(null)" ? "" : " on " + j.node);
  if (j.cancelled) return "cancelled: " + where + " was stopped (scancel)";
  if (!j.end.agent_finished()) {
    const std::string said = text_tail(dir / "job.err", 300);
    return "infrastructure failure: " + where + " ended " + j.end.state + (j.end.reason.empty() || j.end.reason == "None" ? "" : " (" + j.end.reason + ")") +
           ": the cluster's doing (a lost or drained node, preemption, its time limit or a cancel), not the "
           "kernel's" + (said.empty() ? "" : "; the job said: " + said);
  }
  if (j.end.exit_code != 0 || j.end.state != "COMPLETED")
    return "kope-remote failed in " + where + " (exit " + std::to_string(j.end.exit_code) + "): " +
           text_tail(dir / "job.err", 600);
  return "";
}

// The node's description, once per process for the same kind and options (a job each time would queue).
const json& SlurmDevice::info(std::string* node) {
  static std::mutex mu;
  static std::map<std::string, std::pair<json, std::string>> described;
  const std::string key = kind_ + " " + to_json(cluster_.options()).dump() + " " + root().string();
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = described.find(key); it != described.end()) {
      if (node) *node = it->second.second;
      return it->second.first;
    }
  }
  JobFolder job(root());
  const SlurmJob j = run_job("info", job.path, 300, nullptr);
  if (const std::string why = not_finished(j, job.path); !why.empty()) throw Error("describing a node: " + why);
  json parsed = json::parse(read_file(job.path / "job.out", "the node's description"), nullptr, false);
  if (parsed.is_discarded() || !parsed.contains("availability"))
    throw Error("kope-remote info in Slurm job " + j.id + " printed no device description: " +
                text_tail(job.path / "job.out", 300));
  std::lock_guard<std::mutex> lock(mu);
  auto& entry = described.emplace(key, std::make_pair(std::move(parsed), j.node)).first->second;
  if (node) *node = entry.second;
  return entry.first;  // std::map keeps it in place
}

Capabilities SlurmDevice::capabilities() {
  Capabilities c = local_->capabilities();  // the build side is this machine's
  try {
    const json j = info().value("capabilities", json::object());
    c.can_run = j.value("can_run", false);
    c.can_time = j.value("can_time", false);
    c.profiler = j.value("profiler", false);
    c.sanitizer = j.value("sanitizer", false);
  } catch (const Error&) {
    c.can_run = c.can_time = false;
  }
  return c;
}

Fingerprint SlurmDevice::fingerprint() {
  Fingerprint f;
  try {
    f = fingerprint_from_json(info().value("fingerprint", json::object()));
    std::string node;
    info(&node);
    f.extra.emplace_back("slurm_node", node);
  } catch (const Error& e) {
    f.extra.emplace_back("fingerprint_error", e.what());
  }
  f.device = name();
  const SlurmOptions& o = cluster_.options();
  f.extra.emplace_back("slurm_partition", o.partition.empty() ? "(default)" : o.partition);
  if (!o.gres.empty()) f.extra.emplace_back("slurm_gres", o.gres);
  return f;
}

}  // namespace

std::unique_ptr<Device> make_slurm_device(const std::string& kind, const SlurmOptions& options,
                                          const DeviceConfig& config) {
  return std::make_unique<SlurmDevice>(kind, options, config);
}

}  // namespace kope::device
