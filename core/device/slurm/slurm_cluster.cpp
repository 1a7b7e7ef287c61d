#include "slurm_internal.h"

#include <chrono>
#include <cmath>
#include <sstream>
#include <thread>

#include "kope/base/error.h"
#include "kope/base/text.h"

namespace kope::device {

namespace fs = std::filesystem;

namespace {

// The value of `key=` in scontrol's one-line output, "" when absent.
std::string field(const std::string& text, const std::string& key) {
  const std::string want = " " + key + "=";
  const std::string padded = " " + text;
  const auto at = padded.find(want);
  if (at == std::string::npos) return "";
  const auto start = at + want.size();
  return padded.substr(start, padded.find_first_of(" \n", start) - start);
}

}  // namespace

ProcessResult SlurmCluster::command(const std::vector<std::string>& argv, double timeout) const {
  ProcessLimits lim;
  lim.wall_seconds = timeout;
  std::vector<std::string> a = argv;
  const fs::path found = find_program(a[0], env_);
  if (!found.empty()) a[0] = found.string();
  return run_process(a, lim, {}, env_);
}

std::string SlurmCluster::missing_tools() const {
  std::string missing;
  for (const char* t : {"sbatch", "scontrol", "scancel"})
    if (find_program(t, env_).empty()) missing += (missing.empty() ? "" : ", ") + std::string(t);
  if (missing.empty()) return "";
  return missing + " not found in PATH: install the Slurm client (Debian: slurm-client) or load the cluster's "
                   "slurm module";
}

std::vector<std::string> SlurmCluster::sbatch_argv(const fs::path& dir, const std::string& job_name,
                                                   double limit_seconds) const {
  const SlurmOptions& o = options_;
  std::vector<std::string> a = {"sbatch", "--parsable", "--job-name=" + job_name, "--nodes=1", "--ntasks=1",
                                "--chdir=" + dir.string(), "--output=" + (dir / "job.out").string(),
                                "--error=" + (dir / "job.err").string()};
  if (!o.partition.empty()) a.push_back("--partition=" + o.partition);
  if (!o.gres.empty()) a.push_back("--gres=" + o.gres);
  if (!o.account.empty()) a.push_back("--account=" + o.account);
  // Without a limit of its own, the job may run as long as the measurement may, and a little more.
  const int minutes = std::max(1, static_cast<int>(std::ceil(limit_seconds / 60.0)));
  a.push_back("--time=" + (o.time.empty() ? std::to_string(minutes) : o.time));
  if (o.exclusive) a.push_back("--exclusive");
  a.insert(a.end(), o.sbatch_args.begin(), o.sbatch_args.end());
  return a;
}

std::string SlurmCluster::refused(const std::string& job_name) const {
  std::vector<std::string> a = sbatch_argv(fs::temp_directory_path(), job_name, 60);
  a.insert(a.begin() + 1, "--test-only");
  a.push_back("--wrap=true");
  const ProcessResult r = command(a);
  if (r.ok()) return "";
  return "sbatch " + r.describe() + ": " + trim(tail_text(r.err + r.out, 600));
}

std::string SlurmCluster::state_of(const std::string& id, SlurmJobEnd& end, std::string& node, std::string& why) const {
  const ProcessResult s = command({"scontrol", "show", "job", "-o", id});
  if (s.ok()) {
    if (auto e = parse_scontrol_job(s.out)) {
      end = *e;
      node = field(s.out, "NodeList");
      return end.state;
    }
  }
  // The controller forgets a job MinJobAge seconds after it ends; the accounting still knows it where there is one.
  const ProcessResult a = command({"sacct", "-j", id, "-X", "-n", "-P", "--format=State,ExitCode,NodeList"});
  std::istringstream line(a.ok() ? a.out : "");
  std::string state, code;
  if (a.ok() && std::getline(line, state, '|') && std::getline(line, code, '|') && !trim(state).empty()) {
    end.state = trim(state.substr(0, state.find(' ')));  // "CANCELLED by 0"
    end.exit_code = std::atoi(code.c_str());
    const auto colon = code.find(':');
    end.signal = colon == std::string::npos ? 0 : std::atoi(code.c_str() + colon + 1);
    std::getline(line, node);
    node = trim(node);
    return end.state;
  }
  why = "scontrol: " + trim(tail_text(s.err + s.out, 300)) + "; sacct: " + trim(tail_text(a.err + a.out, 300));
  return "";
}

void SlurmCluster::wait_final(SlurmJob& job, const CancelToken* cancel) const {
  using clock = std::chrono::steady_clock;
  auto unknown_since = clock::now();
  bool known_once = false;
  for (;;) {
    // Stop-now is scancel: Slurm ends the job's processes on the node, and its state says CANCELLED.
    if (cancel && cancel->cancelled() && !job.cancelled) {
      job.cancelled = true;
      command({"scancel", job.id}, 30);
    }
    std::string why;
    const std::string state = state_of(job.id, job.end, job.node, why);
    if (!state.empty()) {
      known_once = true;
      unknown_since = clock::now();
      if (slurm_state_final(state)) return;
    } else if (clock::now() - unknown_since > std::chrono::seconds(known_once ? 30 : 60)) {
      // Neither the controller nor the accounting knows the job: nothing can be said of the kernel.
      throw Error("Slurm job " + job.id + " is unknown to the cluster (" + why + ")");
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(std::max(0.05, options_.poll_seconds)));
  }
}

SlurmJob SlurmCluster::run(const fs::path& script, const fs::path& dir, const std::string& job_name,
                           double limit_seconds, const CancelToken* cancel) const {
  std::vector<std::string> a = sbatch_argv(dir, job_name, limit_seconds);
  a.push_back(script.string());
  const ProcessResult r = command(a);
  if (!r.ok()) throw Error("sbatch refused the job (" + r.describe() + "): " + trim(tail_text(r.err + r.out, 600)));
  SlurmJob job;
  job.id = trim(r.out.substr(0, r.out.find(';')));  // "ID" or "ID;CLUSTER"
  if (job.id.empty()) throw Error("sbatch printed no job id: " + trim(tail_text(r.err, 300)));
  try {
    wait_final(job, cancel);
  } catch (...) {
    command({"scancel", job.id}, 30);  // nothing of it may go on running unseen
    throw;
  }
  return job;
}

}  // namespace kope::device
