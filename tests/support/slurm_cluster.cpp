#include "slurm_cluster.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace kope::test {

namespace fs = std::filesystem;

namespace {

int free_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  const int port = ntohs(a.sin_port);
  close(s);
  return port;
}

std::string short_hostname() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  std::string h = buf;
  return h.substr(0, h.find('.'));
}

std::string tail_of(const fs::path& f, std::size_t n) {
  std::ifstream in(f);
  std::stringstream s;
  s << in.rdbuf();
  const std::string t = s.str();
  return t.size() > n ? t.substr(t.size() - n) : t;
}

void stop(int& pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) {
      pid = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  pid = -1;
}

}  // namespace

void OneNodeSlurm::write_conf(int ctld_port, int d_port) {
  const std::string t = tmp_.path().string();
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  // proctrack/linuxproc follows a job's processes through their own process groups (kope's sandboxed workers), so
  // scancel and a lost node end them all; no cgroups, no accounting database: what a bare machine can run.
  write_text(tmp_ / "slurm.conf",
             "ClusterName=kopetest\nSlurmctldHost=" + node_ + "(127.0.0.1)\nSlurmctldPort=" + std::to_string(ctld_port) +
                 "\nSlurmdPort=" + std::to_string(d_port) + "\nSlurmUser=root\nSlurmdUser=root\n"
                 "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" + t + "/munge.sock\n"
                 "StateSaveLocation=" + t + "/state\nSlurmdSpoolDir=" + t + "/spool\n"
                 "SlurmctldPidFile=" + t + "/slurmctld.pid\nSlurmdPidFile=" + t + "/slurmd.pid\n"
                 "SlurmctldLogFile=" + t + "/slurmctld.log\nSlurmdLogFile=" + t + "/slurmd.log\n"
                 "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\n"
                 "SelectTypeParameters=CR_Core\nReturnToService=2\nSchedulerType=sched/builtin\n"
                 "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
                 "JobCompType=jobcomp/none\nMpiDefault=none\nJobRequeue=0\nKillWait=2\n"
                 "NodeName=" + node_ + " NodeAddr=127.0.0.1 CPUs=" + std::to_string(cpus) + " State=UNKNOWN\n"
                 "PartitionName=debug Nodes=" + node_ + " Default=YES MaxTime=INFINITE State=UP\n");
}

bool OneNodeSlurm::start(const std::string& name, const std::vector<std::string>& argv, int& pid) {
  if (access(argv[0].c_str(), X_OK) != 0) {
    failure_ = argv[0] + " is not installed (scripts/install-deps.sh installs slurmctld, slurmd and munge)";
    return false;
  }
  pid = fork();
  if (pid == 0) {
    const int log = open((tmp_ / (name + ".out")).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (log >= 0) dup2(log, 1), dup2(log, 2);
    setsid();
    std::vector<char*> a;
    for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
    a.push_back(nullptr);
    execv(a[0], a.data());
    _exit(127);
  }
  return pid > 0;
}

OneNodeSlurm::OneNodeSlurm() {
  if (geteuid() != 0) {
    cannot_start_ = "slurmd runs jobs as their users and must run as root; this test runs as uid " +
                    std::to_string(geteuid());
    return;
  }
  node_ = short_hostname();
  const std::string t = tmp_.path().string();
  fs::create_directories(tmp_ / "state");
  fs::create_directories(tmp_ / "spool");
  {
    std::ifstream rnd("/dev/urandom", std::ios::binary);
    std::string key(1024, '\0');
    rnd.read(key.data(), static_cast<std::streamsize>(key.size()));
    write_text(tmp_ / "munge.key", key);
    fs::permissions(tmp_ / "munge.key", fs::perms::owner_read, fs::perm_options::replace);
  }
  write_conf(free_port(), free_port());
  setenv("SLURM_CONF", conf().c_str(), 1);
  if (!start("munged", {"/usr/sbin/munged", "--foreground", "--force", "--socket=" + t + "/munge.sock",
                        "--key-file=" + t + "/munge.key", "--pid-file=" + t + "/munged.pid",
                        "--log-file=" + t + "/munged.log", "--seed-file=" + t + "/munge.seed"}, munged_))
    return;
  for (int i = 0; i < 100 && !fs::exists(tmp_ / "munge.sock"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (!start("slurmctld", {"/usr/sbin/slurmctld", "-D", "-c", "-f", conf().string()}, slurmctld_) ||
      !start("slurmd", {"/usr/sbin/slurmd", "-D", "-f", conf().string()}, slurmd_))
    return;
  if (!wait_node("idle", 30)) failure_ = "the one-node Slurm did not come up idle within 30 s:\n" + logs();
}

OneNodeSlurm::~OneNodeSlurm() {
  if (slurmctld_ > 0) {
    command({"scancel", "--full", "--partition=debug"}, 10);
    for (int i = 0; i < 50 && !queue().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop(slurmd_);
  stop(slurmctld_);
  stop(munged_);
}

ProcessResult OneNodeSlurm::command(const std::vector<std::string>& argv, double timeout) const {
  ProcessLimits lim;
  lim.wall_seconds = timeout;
  return run_process(argv, lim, {}, {"SLURM_CONF=" + conf().string()});
}

bool OneNodeSlurm::wait_node(const std::string& state, double seconds) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    const ProcessResult r = command({"sinfo", "-h", "-n", node_, "-o", "%T"}, 10);
    std::string s = r.out;
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    if (r.ok() && s == state) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

std::vector<std::string> OneNodeSlurm::queue() const {
  const ProcessResult r = command({"squeue", "-h", "-o", "%i %T %j"}, 10);
  std::vector<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::string OneNodeSlurm::logs() const {
  std::string s;
  for (const char* f : {"munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"})
    s += std::string("--- ") + f + "\n" + tail_of(tmp_ / f, 1500) + "\n";
  return s;
}

OneNodeSlurm& OneNodeSlurm::shared() {
  static OneNodeSlurm cluster;
  return cluster;
}

}  // namespace kope::test
