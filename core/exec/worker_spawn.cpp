// Starting and confining kernel workers: through sandbox_spawn (bubblewrap, seccomp, cgroups). The local
// fork/exec below (its own process group, rlimits, a network namespace where allowed, a clean environment, only
// the kept descriptors) is what workers used before the sandbox existed; KOPE_WORKER_SPAWN=local selects it, to
// tell a sandbox problem from a judge problem.
#include "kope/exec/worker.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "kope/base/error.h"

namespace kope::exec {

namespace {

class LocalChild final : public SandboxChild {
 public:
  LocalChild(pid_t pid, int out, int err, Isolation iso) : pid_(pid), out_(out), err_(err), iso_(std::move(iso)) {}
  ~LocalChild() override {
    kill_all();
    wait();
    if (out_ >= 0) close(out_);
    if (err_ >= 0) close(err_);
  }
  pid_t pid() const override { return pid_; }
  int stdout_fd() const override { return out_; }
  int stderr_fd() const override { return err_; }
  const Isolation& isolation() const override { return iso_; }
  void kill_all() override {
    if (!waited_) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
    }
  }
  int wait() override {
    if (!waited_) {
      int st = 0;
      while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
      }
      kill(-pid_, SIGKILL);  // whatever it left behind in its group
      status_ = st;
      waited_ = true;
    }
    return status_;
  }
  uint64_t peak_memory_bytes() const override { return 0; }

 private:
  pid_t pid_;
  int out_, err_;
  Isolation iso_;
  bool waited_ = false;
  int status_ = 0;
};

void write_all(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

std::unique_ptr<SandboxChild> local_spawn(const SandboxSpec& spec) {
  if (spec.argv.empty()) throw Error("local_spawn: no command");
  int outp[2], errp[2], statp[2];
  if (pipe2(outp, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) || pipe2(statp, O_CLOEXEC))
    throw Error(std::string("cannot create pipes for a worker: ") + strerror(errno));
  std::vector<char*> argv, envp;
  for (const auto& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : spec.env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = fork();
  if (pid < 0) throw Error(std::string("cannot fork a worker: ") + strerror(errno));
  if (pid == 0) {
    setpgid(0, 0);
    if (unshare(CLONE_NEWNET) != 0) write_all(statp[1], std::string("N") + strerror(errno) + "\n");
    auto lim = [](int res, uint64_t v) {
      if (!v) return;
      rlimit r{static_cast<rlim_t>(v), static_cast<rlim_t>(v)};
      setrlimit(res, &r);
    };
    lim(RLIMIT_AS, spec.memory_bytes);
    lim(RLIMIT_CPU, static_cast<uint64_t>(spec.cpu_seconds));
    lim(RLIMIT_FSIZE, spec.max_file_bytes);
    lim(RLIMIT_CORE, 0);
    if (spec.max_processes) lim(RLIMIT_NPROC, spec.max_processes);
    dup2(outp[1], 1);
    dup2(errp[1], 2);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */);
    for (int fd : spec.keep_fds) fcntl(fd, F_SETFD, 0);
    if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
      write_all(statp[1], std::string("E") + "cannot enter " + spec.cwd.string() + ": " + strerror(errno));
      _exit(127);
    }
    execve(argv[0], argv.data(), envp.data());
    write_all(statp[1], std::string("E") + "cannot run " + spec.argv[0] + ": " + strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  close(outp[1]);
  close(errp[1]);
  close(statp[1]);
  std::string msg;
  char buf[512];
  for (ssize_t n; (n = read(statp[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    msg.append(buf, static_cast<std::size_t>(n));
  }
  close(statp[0]);
  Isolation iso;
  iso.active.push_back("rlimits");
  std::string exec_error;
  std::size_t pos = 0;
  bool net = true;
  while (pos < msg.size()) {
    std::size_t nl = msg.find('\n', pos);
    std::string line = msg.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? msg.size() : nl + 1;
    if (line.empty()) continue;
    if (line[0] == 'N') {
      net = false;
      iso.missing.push_back({"network-namespace", line.substr(1)});
    } else if (line[0] == 'E') {
      exec_error = line.substr(1);
    }
  }
  if (net) iso.active.push_back("network-namespace");
  iso.active.push_back("clean-environment");
  for (const char* m : {"user-namespace", "mount-namespace", "pid-namespace", "unprivileged-uid", "seccomp",
                        "cgroup-memory", "cgroup-pids"})
    iso.missing.push_back({m, "the sandbox is not built in; workers start through the local fallback"});
  auto child = std::make_unique<LocalChild>(pid, outp[0], errp[0], std::move(iso));
  if (!exec_error.empty()) throw Error("cannot start a worker: " + exec_error);
  return child;
}

// The thread every worker is started from: it lives as long as the process. A child dies with the thread that
// forked it (PR_SET_PDEATHSIG), and a held baseline worker (judge.cpp) serves later evaluations on other
// threads: started from a task's thread, it was killed when that task ended, in the middle of another task's
// call. Each start runs with its caller's cores (a worker inherits its starter's affinity: side work is pinned,
// kope/base/timing_slots.h).
class Starter {
 public:
  static Starter& get() {
    static Starter* s = new Starter();  // never destroyed: the thread ends with the process, and its children then
    return *s;
  }
  std::unique_ptr<SandboxChild> start(const std::function<std::unique_ptr<SandboxChild>()>& f) {
    cpu_set_t cores;
    const bool pinned = pthread_getaffinity_np(pthread_self(), sizeof cores, &cores) == 0;
    std::packaged_task<std::unique_ptr<SandboxChild>()> job([&] {
      if (pinned) pthread_setaffinity_np(pthread_self(), sizeof cores, &cores);
      return f();
    });
    std::future<std::unique_ptr<SandboxChild>> done = job.get_future();
    {
      std::lock_guard<std::mutex> lock(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
    return done.get();  // rethrows what the start threw
  }

 private:
  Starter() {
    std::thread([this] {
      for (;;) {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] { return !jobs_.empty(); });
        std::packaged_task<std::unique_ptr<SandboxChild>()> job = std::move(jobs_.front());
        jobs_.pop_front();
        lock.unlock();
        job();
      }
    }).detach();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::packaged_task<std::unique_ptr<SandboxChild>()>> jobs_;
};

}  // namespace

std::unique_ptr<SandboxChild> spawn_worker_process(const SandboxSpec& spec) {
  const char* e = std::getenv("KOPE_WORKER_SPAWN");
  const bool local = e && std::string(e) == "local";
  return Starter::get().start([&] { return local ? local_spawn(spec) : sandbox_spawn(spec); });
}

std::string confine_worker() {
  return confine_current_process();
}

}  // namespace kope::exec
