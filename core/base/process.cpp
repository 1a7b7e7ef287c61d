#include "kope/base/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <string_view>

#include "kope/base/text.h"

extern char** environ;

namespace kope {

std::string signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGPIPE: return "SIGPIPE";
    default: return "signal " + std::to_string(sig);
  }
}

std::string ProcessResult::describe() const {
  std::ostringstream s;
  if (!started) s << "could not start: " << error;
  else if (timed_out) s << "timed out after " << std::fixed << std::setprecision(1) << wall_seconds
                        << " s (process group killed)";
  else if (term_signal) s << "killed by signal " << term_signal << " (" << signal_name(term_signal) << ")";
  else s << "exit " << exit_code;
  return s.str();
}

namespace {

void set_limit(int resource, uint64_t value) {
  if (value == 0) return;
  struct rlimit rl;
  rl.rlim_cur = rl.rlim_max = static_cast<rlim_t>(value);
  setrlimit(resource, &rl);
}

void append_bounded(std::string& into, const char* data, std::size_t n, std::size_t cap, std::size_t& dropped) {
  std::size_t room = into.size() < cap ? cap - into.size() : 0;
  std::size_t take = n < room ? n : room;
  into.append(data, take);
  dropped += n - take;
}

}  // namespace

// Long on purpose: after fork the child runs a straight line of async-signal-safe calls on what was prepared
// before it, and the parent's poll loop drains both pipes against the same deadline; split, the two halves of
// one protocol would be read apart.
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::filesystem::path& cwd, const std::vector<std::string>& env_extra) {
  ProcessResult r;
  if (argv.empty()) {
    r.error = "empty command";
    return r;
  }
  // Everything the child needs is prepared before fork: after it only async-signal-safe calls are made.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_store;
  auto name_of = [](std::string_view entry) { return entry.substr(0, entry.find('=')); };
  for (char** e = environ; *e; ++e) {
    bool overridden = false;
    for (const auto& x : env_extra) overridden = overridden || name_of(x) == name_of(*e);
    if (!overridden) env_store.emplace_back(*e);
  }
  for (const auto& e : env_extra) env_store.push_back(e);
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string cwd_str = cwd.string();

  int out_pipe[2], err_pipe[2], exec_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC) || pipe2(exec_pipe, O_CLOEXEC)) {
    r.error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  auto start = std::chrono::steady_clock::now();
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    r.error = std::string("fork: ") + std::strerror(errno);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], exec_pipe[0], exec_pipe[1]}) close(fd);
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    struct rlimit zero = {0, 0};
    setrlimit(RLIMIT_CORE, &zero);
    set_limit(RLIMIT_AS, limits.address_space_bytes);
    set_limit(RLIMIT_CPU, limits.cpu_seconds);
    set_limit(RLIMIT_FSIZE, limits.max_file_bytes);
    if (!cwd_str.empty() && chdir(cwd_str.c_str()) != 0) {
      int e = -errno;  // negative: the folder, not the program, is at fault
      (void)!write(exec_pipe[1], &e, sizeof e);
      _exit(127);
    }
    execvpe(args[0], args.data(), envp.data());
    int e = errno;
    (void)!write(exec_pipe[1], &e, sizeof e);
    _exit(127);
  }
  setpgid(pid, pid);  // also from the parent, so the group exists before any kill below
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(exec_pipe[1]);
  int child_errno = 0;
  ssize_t got;
  do got = read(exec_pipe[0], &child_errno, sizeof child_errno);
  while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof child_errno)) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    waitpid(pid, nullptr, 0);
    r.error = child_errno < 0 ? "cannot enter '" + cwd_str + "': " + std::strerror(-child_errno)
                              : "'" + argv[0] + "': " + std::strerror(child_errno);
    return r;
  }
  r.started = true;

  struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  auto deadline = start + std::chrono::duration<double>(limits.wall_seconds);
  int status = 0;
  bool reaped = false;
  auto drain = [&](int timeout_ms) {
    int n = poll(fds, 2, timeout_ms);
    if (n <= 0) return false;
    bool any = false;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(f.fd, buf, sizeof buf);
      if (k > 0) {
        append_bounded(&f == &fds[0] ? r.out : r.err, buf, static_cast<std::size_t>(k), limits.max_captured_bytes,
                       r.dropped_bytes);
        any = true;
      } else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(f.fd);
        f.fd = -1;
        --open_fds;
      }
    }
    return any;
  };
  while (!reaped) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      r.timed_out = true;
      break;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    if (open_fds > 0) drain(static_cast<int>(left < 20 ? left : 20));
    else usleep(2000);
    // Seen but not reaped: the pid, and so the group id, stays ours until the kill below.
    siginfo_t info{};
    reaped = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
  }
  kill(-pid, SIGKILL);  // the group: a kernel's stray children die with it
  waitpid(pid, &status, 0);
  while (open_fds > 0 && drain(0)) {
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.out = escape_invalid_utf8(r.out);  // a program's output is untrusted text: stored and printed as valid UTF-8
  r.err = escape_invalid_utf8(r.err);
  if (r.timed_out) return r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

}  // namespace kope

