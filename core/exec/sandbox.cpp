// sandbox_spawn: a command wrapped in bubblewrap (user, mount, pid, ipc, uts, cgroup and network namespaces, the
// uid nobody, no capabilities, a private read-only view of the system plus the spec's paths), with a seccomp
// filter, in per-child cgroups joined before it runs, under rlimits. Each part is used where the system allows it;
// what is missing is named with the reason in the child's Isolation.
// Over 600 lines on purpose: the probe of what this system allows and the spawn that relies on it share the Probe,
// the view and the post-fork code; kept together, one reading shows every isolation a report may claim and where
// it is set up (the cgroups are in cgroup.cpp, the filters in seccomp.cpp).
#include "kope/exec/sandbox.h"

#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <mutex>
#include <sstream>

#include "kope/base/cancel.h"
#include "kope/base/error.h"
#include "kope/exec/sandbox_internal.h"

namespace kope::exec {

namespace fs = std::filesystem;

std::string Isolation::summary() const {
  std::string s = "isolated: ";
  for (std::size_t i = 0; i < active.size(); ++i) s += (i ? ", " : "") + active[i];
  if (active.empty()) s += "nothing";
  if (!missing.empty()) {
    s += "; missing: ";
    for (std::size_t i = 0; i < missing.size(); ++i)
      s += (i ? "; " : "") + missing[i].first + " (" + missing[i].second + ")";
  }
  return s;
}

namespace {

constexpr uid_t kNobody = 65534;

struct Forced {
  bool no_bwrap = false, no_cgroup = false, no_seccomp = false;
  std::string text;  // the variable's value, for reasons
};

Forced forced() {
  Forced f;
  const char* env = std::getenv("KOPE_SANDBOX");
  if (!env || !*env) return f;
  f.text = env;
  std::istringstream in(f.text);
  std::string w;
  while (std::getline(in, w, ',')) {
    if (w == "none") f.no_bwrap = f.no_cgroup = f.no_seccomp = true;
    if (w == "no-bwrap") f.no_bwrap = true;
    if (w == "no-cgroup") f.no_cgroup = true;
    if (w == "no-seccomp") f.no_seccomp = true;
  }
  return f;
}

std::string first_line(const std::string& text) {
  std::string s = text.substr(0, text.find('\n'));
  if (s.size() > 300) s.resize(300);
  return s;
}

// Runs a probe command with an empty environment; returns its wait status and its stderr.
int run_quiet(const std::vector<std::string>& argv, std::string& err) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    err = std::string("pipe: ") + std::strerror(errno);
    return -1;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  char* envp[] = {nullptr};
  pid_t pid = fork();
  if (pid < 0) {
    err = std::string("fork: ") + std::strerror(errno);
    close(p[0]);
    close(p[1]);
    return -1;
  }
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(p[1], 2);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    execve(args[0], args.data(), envp);
    const char* m = "cannot execute the probe";
    (void)!write(2, m, std::strlen(m));
    _exit(127);
  }
  close(p[1]);
  char buf[4096];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0 && err.size() < 65536) err.append(buf, static_cast<std::size_t>(n));
  close(p[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

std::string find_bwrap(std::string& why) {
  std::vector<std::string> dirs = {"/usr/bin", "/bin", "/usr/local/bin"};
  if (const char* path = std::getenv("PATH")) {
    std::istringstream in(path);
    std::string d;
    while (std::getline(in, d, ':'))
      if (!d.empty() && d[0] == '/') dirs.push_back(d);
  }
  for (const auto& d : dirs) {
    std::string p = d + "/bwrap";
    if (access(p.c_str(), X_OK) == 0) return p;
  }
  why = "bubblewrap is not installed (no bwrap in /usr/bin or $PATH; Debian: apt-get install bubblewrap)";
  return "";
}

// The system folders a program needs to run: /usr, the /lib* and /bin folders or the symlinks into /usr, the
// loader's cache, and /etc/alternatives (where Debian points c++, cc, ...).
void system_view(std::vector<std::string>& a) {
  a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
  for (const char* p : {"/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin"}) {
    struct stat st;
    if (lstat(p, &st) != 0) continue;
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      fs::path target = fs::read_symlink(p, ec);
      if (!ec) a.insert(a.end(), {"--symlink", target.string(), p});
    } else if (S_ISDIR(st.st_mode)) {
      a.insert(a.end(), {"--ro-bind", p, p});
    }
  }
  for (const char* p : {"/etc/ld.so.cache", "/etc/alternatives"}) a.insert(a.end(), {"--ro-bind-try", p, p});
  a.insert(a.end(), {"--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"});
}

std::vector<std::string> bwrap_base(const std::string& bwrap, bool disable_userns, bool network) {
  std::vector<std::string> a = {bwrap, "--unshare-all", "--unshare-user"};
  if (network) a.push_back("--share-net");
  if (disable_userns) a.push_back("--disable-userns");
  a.insert(a.end(), {"--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv", "--uid",
                     std::to_string(kNobody), "--gid", std::to_string(kNobody), "--hostname", "kope-sandbox"});
  system_view(a);
  return a;
}

struct Probe {
  Forced forced;
  std::string bwrap;          // usable, else empty
  bool disable_userns = false;
  std::string bwrap_why;      // why bubblewrap is not used
  std::string nested_why;     // why --disable-userns could not be used
  std::vector<sock_filter> filter, filter_net;  // the spawn filters (exec allowed), without and with network
  std::string seccomp_why;
  const detail::CgroupPlan* cgroups = nullptr;
  std::string drop_why;       // as root: why a direct child could not become nobody ("" if it can)
};

// Whether a child can switch to nobody: root in a user namespace without that uid mapped cannot.
std::string can_drop_to_nobody() {
  pid_t pid = fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) {
    if (syscall(SYS_setgroups, 0, nullptr) != 0 || syscall(SYS_setresgid, kNobody, kNobody, kNobody) != 0 ||
        syscall(SYS_setresuid, kNobody, kNobody, kNobody) != 0)
      _exit(errno & 0x7f);
    _exit(0);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return "";
  return std::string("cannot switch to uid 65534: ") +
         (WIFEXITED(st) ? std::strerror(WEXITSTATUS(st)) : std::string("the probe died"));
}

Probe make_probe() {
  Probe p;
  p.forced = forced();
  if (p.forced.no_bwrap) p.bwrap_why = "disabled by KOPE_SANDBOX=" + p.forced.text;
  else if (std::string bw = find_bwrap(p.bwrap_why); !bw.empty()) {
    std::string err;
    auto try_it = [&](bool disable_userns) {
      std::vector<std::string> a = bwrap_base(bw, disable_userns, false);
      a.insert(a.end(), {"--remount-ro", "/", "--", "/usr/bin/true"});
      err.clear();
      int st = run_quiet(a, err);
      return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    };
    if (try_it(true)) {
      p.bwrap = bw, p.disable_userns = true;
    } else {
      std::string first = first_line(err);
      if (try_it(false)) {
        p.bwrap = bw;
        p.nested_why = first.empty() ? "bwrap --disable-userns failed" : first;
      } else {
        p.bwrap_why = bw + " cannot make a sandbox here: " +
                      (err.empty() ? std::string("it failed without a message") : first_line(err));
      }
    }
  }
  if (p.forced.no_seccomp) p.seccomp_why = "disabled by KOPE_SANDBOX=" + p.forced.text;
  else {
    p.seccomp_why = detail::seccomp_program(true, false, p.filter);
    if (p.seccomp_why.empty()) p.seccomp_why = detail::seccomp_program(true, true, p.filter_net);
    if (!p.seccomp_why.empty()) p.filter.clear(), p.filter_net.clear();
  }
  if (!p.forced.no_cgroup) p.cgroups = &detail::cgroup_plan();
  if (p.bwrap.empty() && getuid() == 0) p.drop_why = can_drop_to_nobody();
  return p;
}

const Probe& probe() {
  static std::mutex mu;
  static std::map<std::string, Probe> cache;  // by $KOPE_SANDBOX, so a test can force a mode
  std::lock_guard<std::mutex> lock(mu);
  const char* env = std::getenv("KOPE_SANDBOX");
  std::string key = env ? env : "";
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, make_probe()).first;
  return it->second;
}

// What namespaces, identity and filter a spawn gets, before cgroups.
void describe(const Probe& p, bool network, Isolation& iso) {
  if (!p.bwrap.empty()) {
    for (const char* m : {"user-namespace", "mount-namespace", "pid-namespace", "ipc-namespace", "uts-namespace",
                          "cgroup-namespace"})
      iso.active.push_back(m);
    if (!network) iso.active.push_back("network-namespace");
    iso.active.push_back("unprivileged-uid");
    iso.active.push_back("no-capabilities");
    if (!p.nested_why.empty()) iso.missing.push_back({"no-nested-user-namespaces", p.nested_why});
  } else {
    for (const char* m : {"user-namespace", "mount-namespace", "pid-namespace", "ipc-namespace"})
      iso.missing.push_back({m, p.bwrap_why});
    if (!network) iso.missing.push_back({"network-namespace", p.bwrap_why});
    if (getuid() == 0 && p.drop_why.empty()) {
      iso.active.push_back("unprivileged-uid");  // dropped to nobody before exec
      iso.active.push_back("no-capabilities");
    } else if (getuid() == 0) {
      iso.missing.push_back({"unprivileged-uid", "runs as root: " + p.drop_why + " (" + p.bwrap_why + ")"});
      iso.missing.push_back({"no-capabilities", "runs as root with its capabilities: " + p.drop_why});
    } else {
      iso.missing.push_back({"unprivileged-uid", "runs as the caller's uid " + std::to_string(getuid()) +
                                                     " with the whole filesystem visible (" + p.bwrap_why + ")"});
      iso.active.push_back("no-capabilities");
    }
  }
  iso.active.push_back("clean-environment");
  if (!p.filter.empty()) iso.active.push_back("seccomp");
  else iso.missing.push_back({"seccomp", p.seccomp_why});
  iso.active.push_back("rlimits");
}

// Tasks (threads) the real uid has now: RLIMIT_NPROC counts them all, so a per-tree bound sits on top of them.
uint64_t tasks_of_uid(uid_t uid) {
  uint64_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    std::ifstream in(e.path() / "status");
    std::string line;
    bool mine = false;
    while (std::getline(in, line)) {
      if (line.rfind("Uid:", 0) == 0) mine = std::strtoul(line.c_str() + 4, nullptr, 10) == uid;
      if (line.rfind("Threads:", 0) == 0 && mine) n += std::strtoull(line.c_str() + 8, nullptr, 10);
    }
  }
  return n;
}

fs::path existing(const fs::path& p, const char* what) {
  std::error_code ec;
  fs::path c = fs::canonical(p, ec);
  if (ec) throw Error(std::string("sandbox: the ") + what + " '" + p.string() + "' cannot be used: " + ec.message());
  return c;
}

bool under(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end(); ++d, ++q)
    if (q == p.end() || *d != *q) return false;
  return true;
}

// The first folder on the way to `p` that uid 65534 may not search (by mode bits), or "" when it may reach `p`.
std::string unreachable_by_nobody(const fs::path& p) {
  fs::path walk;
  for (const auto& part : p.parent_path()) {
    walk /= part;
    struct stat st;
    if (stat(walk.c_str(), &st) != 0) return walk.string();
    bool ok = st.st_uid == kNobody ? (st.st_mode & S_IXUSR) : st.st_gid == kNobody ? (st.st_mode & S_IXGRP)
                                                                                   : (st.st_mode & S_IXOTH);
    if (!ok) return walk.string();
  }
  return "";
}

void chown_tree(const fs::path& root, uid_t uid) {
  std::error_code ec;
  if (lchown(root.c_str(), uid, uid) != 0) return;
  if (!fs::is_directory(fs::symlink_status(root, ec))) return;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    (void)!lchown(it->path().c_str(), uid, uid);
}

class Child final : public SandboxChild {
 public:
  Child(pid_t pid, int out, int err, Isolation iso, std::unique_ptr<detail::TreeCgroup> cg, bool wrapped,
        double cpu_limit)
      : pid_(pid), out_(out), err_(err), iso_(std::move(iso)), cg_(std::move(cg)), wrapped_(wrapped),
        cpu_limit_(cpu_limit) {}
  ~Child() override {
    kill_all();
    if (!reaped_) reap(0);
    if (cg_) cg_->destroy();
    if (out_ >= 0) close(out_);
    if (err_ >= 0) close(err_);
  }
  pid_t pid() const override { return pid_; }
  int stdout_fd() const override { return out_; }
  int stderr_fd() const override { return err_; }
  const Isolation& isolation() const override { return iso_; }

  void kill_all() override {
    if (!reaped_) {
      kill(-pid_, SIGKILL);  // its process group (it is a session leader), before the pid can be reused
      kill(pid_, SIGKILL);   // bubblewrap: the namespace's init dies with it, and so every process inside
    }
    if (cg_) cg_->kill_all();
  }

  // Enforces the tree's CPU time; true when it had to kill.
  bool check_cpu() {
    if (cpu_killed_ || cpu_limit_ <= 0 || !cg_ || !cg_->has_cpu()) return false;
    if (cg_->cpu_seconds() <= cpu_limit_) return false;
    cpu_killed_ = true;
    kill_all();
    return true;
  }

  // Exited (or not, with WNOHANG) without reaping: the group can still be killed while the pid is ours.
  bool exited(bool block) {
    siginfo_t info{};
    int flags = WEXITED | WNOWAIT | (block ? 0 : WNOHANG);
    while (waitid(P_PID, static_cast<id_t>(pid_), &info, flags) != 0)
      if (errno != EINTR) return true;  // not our child any more: treat as gone
    return info.si_pid == pid_;
  }

  int wait() override {
    if (reaped_) return status_;
    if (cpu_limit_ > 0 && cg_ && cg_->has_cpu()) {
      while (!exited(false)) {
        check_cpu();
        usleep(10000);
      }
    } else {
      exited(true);
    }
    reap(0);
    return status_;
  }

  uint64_t peak_memory_bytes() const override { return cg_ ? cg_->peak_memory() : 0; }
  double cpu_seconds() const override { return cg_ ? cg_->cpu_seconds() : -1; }
  std::string limit_hit() const override {
    if (cpu_killed_) return "cpu time";
    if (std::string h = cg_ ? cg_->limit_hit() : ""; !h.empty()) return h;
    if (reaped_ && WIFSIGNALED(status_) && WTERMSIG(status_) == SIGXCPU) return "cpu time";
    return "";
  }

 private:
  void reap(int) {
    kill_all();  // the tree dies with its main process, also strays that left the group
    int st = 0;
    while (waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    if (cg_) cg_->kill_all();
    // bubblewrap reports a command killed by signal N as exit 128+N.
    if (wrapped_ && WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + 65)
      st = WEXITSTATUS(st) - 128;  // the raw status of a death by that signal
    status_ = st;
  }

  pid_t pid_;
  int out_, err_;
  Isolation iso_;
  std::unique_ptr<detail::TreeCgroup> cg_;
  bool wrapped_;
  double cpu_limit_;
  bool reaped_ = false, cpu_killed_ = false;
  int status_ = 0;
};

void close_all_but(const std::vector<int>& keep_sorted) {
  // keep_sorted is ascending and starts with 0, 1, 2.
  int from = 0;
  for (int k : keep_sorted) {
    if (k > from) {
      if (syscall(SYS_close_range, from, k - 1, 0) != 0)
        for (int fd = from; fd < k; ++fd) close(fd);
    }
    from = k + 1;
  }
  if (syscall(SYS_close_range, from, ~0U, 0) != 0)
    for (int fd = from; fd < 65536; ++fd) close(fd);
}

}  // namespace

Isolation sandbox_capabilities() {
  const Probe& p = probe();
  Isolation iso;
  describe(p, false, iso);
  if (!p.cgroups) {
    for (const char* m : {"cgroup-memory", "cgroup-pids", "cgroup-cpu"})
      iso.missing.push_back({m, "disabled by KOPE_SANDBOX=" + p.forced.text});
  } else {
    const auto& c = *p.cgroups;
    if (c.memory_parent.empty()) iso.missing.push_back({"cgroup-memory", c.memory_why});
    else iso.active.push_back("cgroup-memory");
    if (c.pids_parent.empty()) iso.missing.push_back({"cgroup-pids", c.pids_why});
    else iso.active.push_back("cgroup-pids");
    if (c.cpu_parent.empty()) iso.missing.push_back({"cgroup-cpu", c.cpu_why});
    else iso.active.push_back("cgroup-cpu");
  }
  return iso;
}

namespace {

// A path of the child's view: the real file or folder, and where the child sees it (the path as the spec gives it).
struct Bind {
  fs::path src, dest;
  bool writable;
};

fs::path as_given(const fs::path& p) {
  fs::path d = fs::absolute(p).lexically_normal();
  return d.filename().empty() && d.has_parent_path() && d != d.root_path() ? d.parent_path() : d;
}

// The private view: the spec's paths (parents first, so a path inside another is mounted over it), and the
// program itself when nothing else shows it.
std::vector<Bind> private_view(const SandboxSpec& spec) {
  std::vector<Bind> binds;
  for (const auto& r : spec.ro_paths) binds.push_back({existing(r, "read-only path"), as_given(r), false});
  for (const auto& w : spec.rw_paths) binds.push_back({existing(w, "writable path"), as_given(w), true});
  const fs::path program = existing(spec.argv[0], "program");
  bool shown = under(as_given(spec.argv[0]), "/usr");
  for (const auto& b : binds) shown = shown || under(as_given(spec.argv[0]), b.dest);
  if (!shown) binds.push_back({program, as_given(spec.argv[0]), false});
  std::stable_sort(binds.begin(), binds.end(), [](const Bind& a, const Bind& b) {
    return std::distance(a.dest.begin(), a.dest.end()) < std::distance(b.dest.begin(), b.dest.end());
  });
  return binds;
}

// bubblewrap's command line for the spec: its environment, the view, the device nodes, the working folder and
// the seccomp filter (passed in a memfd whose descriptor lands in `seccomp_fd`), then the command.
std::vector<std::string> bwrap_command(const Probe& p, const SandboxSpec& spec, const std::vector<Bind>& binds,
                                       const fs::path& cwd, int& seccomp_fd) {
  const std::vector<sock_filter>& filter = spec.network ? p.filter_net : p.filter;
  std::vector<std::string> args = bwrap_base(p.bwrap, p.disable_userns, spec.network);
  for (const auto& e : spec.env) {
    auto eq = e.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    args.insert(args.end(), {"--setenv", e.substr(0, eq), e.substr(eq + 1)});
  }
  for (const auto& b : binds)
    args.insert(args.end(), {b.writable ? "--bind" : "--ro-bind", b.src.string(), b.dest.string()});
  // Accelerator device nodes: only the ones named, over bubblewrap's minimal /dev (absent ones are skipped).
  for (const auto& d : spec.dev_paths) args.insert(args.end(), {"--dev-bind-try", d.string(), d.string()});
  args.insert(args.end(), {"--remount-ro", "/", "--chdir", cwd.string()});
  if (!filter.empty()) {
    seccomp_fd = memfd_create("kope-seccomp", MFD_CLOEXEC);
    const std::size_t bytes = filter.size() * sizeof(sock_filter);
    if (seccomp_fd < 0 || write(seccomp_fd, filter.data(), bytes) != static_cast<ssize_t>(bytes) ||
        lseek(seccomp_fd, 0, SEEK_SET) != 0)
      throw Error(std::string("sandbox: cannot pass the seccomp filter to bubblewrap: ") + std::strerror(errno));
    args.insert(args.end(), {"--seccomp", std::to_string(seccomp_fd)});
  }
  args.push_back("--");
  args.insert(args.end(), spec.argv.begin(), spec.argv.end());
  return args;
}

// Without bubblewrap, as root: the command will run as nobody, who must reach every path and own the writable ones.
// Untrusted code never runs as root: a path nobody cannot reach is an error, not a reason to stay root.
void hand_view_to_nobody(const Probe& p, const std::vector<Bind>& binds) {
  for (const auto& b : binds)
    if (std::string dir = unreachable_by_nobody(b.src); !dir.empty())
      throw Error("sandbox: without bubblewrap (" + p.bwrap_why + ") kope runs this program as uid 65534, which " +
                  "cannot reach '" + b.src.string() + "' because '" + dir + "' is not searchable by others; " +
                  "use a workspace that uid can reach (e.g. --workspace /var/tmp/kope) or install bubblewrap");
  for (const auto& b : binds)
    if (b.writable) chown_tree(b.src, kNobody);
}

}  // namespace

// One function from the view to the exec: after fork, the child runs a straight line of async-signal-safe calls on
// what was prepared before it, which is clearest read in one place.
std::unique_ptr<SandboxChild> sandbox_spawn(const SandboxSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty() || spec.argv[0][0] != '/')
    throw Error("sandbox: the command must start with an absolute path, got '" +
                (spec.argv.empty() ? std::string() : spec.argv[0]) + "'");
  const Probe& p = probe();
  const bool wrapped = !p.bwrap.empty();
  Isolation iso;
  describe(p, spec.network, iso);
  const std::vector<Bind> binds = private_view(spec);
  if (!spec.cwd.empty()) existing(spec.cwd, "working folder");
  const fs::path cwd = spec.cwd.empty() ? fs::path("/tmp") : as_given(spec.cwd);

  std::vector<std::string> args;
  std::vector<std::string> env;
  int seccomp_fd = -1;
  if (wrapped) {
    args = bwrap_command(p, spec, binds, cwd, seccomp_fd);
  } else {
    args = spec.argv;
    env = spec.env;
    if (getuid() == 0 && p.drop_why.empty()) hand_view_to_nobody(p, binds);
  }

  std::unique_ptr<detail::TreeCgroup> cg;
  if (p.cgroups) {
    cg = std::make_unique<detail::TreeCgroup>(spec, iso);
  } else {
    for (const char* m : {"cgroup-memory", "cgroup-pids", "cgroup-cpu"})
      iso.missing.push_back({m, "disabled by KOPE_SANDBOX=" + p.forced.text});
  }

  // Everything the child needs is prepared before fork: after it only async-signal-safe calls are made.
  std::vector<char*> argv_c, envp_c;
  for (auto& a : args) argv_c.push_back(a.data());
  argv_c.push_back(nullptr);
  for (auto& e : env) envp_c.push_back(e.data());
  envp_c.push_back(nullptr);
  const std::string cwd_s = cwd.string();
  struct Limit {
    int resource;
    rlim_t value;
  };
  std::vector<Limit> limits = {{RLIMIT_CORE, 0}};
  if (spec.max_file_bytes) limits.push_back({RLIMIT_FSIZE, spec.max_file_bytes});
  if (spec.cpu_seconds > 0) limits.push_back({RLIMIT_CPU, static_cast<rlim_t>(std::ceil(spec.cpu_seconds))});
  if (spec.memory_bytes && !(cg && cg->has_memory())) limits.push_back({RLIMIT_AS, spec.memory_bytes});
  if (spec.max_processes && !(cg && cg->has_pids()) && getuid() != 0)
    limits.push_back({RLIMIT_NPROC, spec.max_processes + tasks_of_uid(getuid())});
  const bool drop_to_nobody = !wrapped && getuid() == 0 && p.drop_why.empty();
  const std::vector<sock_filter>& filter = spec.network ? p.filter_net : p.filter;
  struct sock_fprog prog = {static_cast<unsigned short>(filter.size()), const_cast<sock_filter*>(filter.data())};
  const bool direct_filter = !wrapped && !filter.empty();
  const bool stdin_kept = std::find(spec.keep_fds.begin(), spec.keep_fds.end(), 0) != spec.keep_fds.end();

  int out_p[2], err_p[2], exec_p[2], sync_p[2];
  if (pipe2(out_p, O_CLOEXEC) || pipe2(err_p, O_CLOEXEC) || pipe2(exec_p, O_CLOEXEC) || pipe2(sync_p, O_CLOEXEC))
    throw Error(std::string("sandbox: pipe: ") + std::strerror(errno));
  const int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  std::vector<int> keep = {0, 1, 2, exec_p[1]};
  for (int fd : spec.keep_fds)
    if (fd > 2) keep.push_back(fd);
  if (seccomp_fd >= 0) keep.push_back(seccomp_fd);
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  std::vector<int> inherit(keep.begin(), keep.end());  // to clear CLOEXEC on
  inherit.erase(std::remove_if(inherit.begin(), inherit.end(), [&](int fd) { return fd <= 2 || fd == exec_p[1]; }),
                inherit.end());

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    for (int fd : {out_p[0], out_p[1], err_p[0], err_p[1], exec_p[0], exec_p[1], sync_p[0], sync_p[1], devnull})
      close(fd);
    if (seccomp_fd >= 0) close(seccomp_fd);
    throw Error(std::string("sandbox: fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    auto fail = [&](int e) {
      (void)!write(exec_p[1], &e, sizeof e);
      _exit(127);
    };
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    // Wait until the parent has put this process in its cgroups, so nothing of the command runs outside them.
    char go = 0;
    ssize_t got;
    do got = read(sync_p[0], &go, 1);
    while (got < 0 && errno == EINTR);
    if (got != 1) _exit(127);
    if (!stdin_kept && devnull >= 0) dup2(devnull, 0);
    dup2(out_p[1], 1);
    dup2(err_p[1], 2);
    for (const auto& l : limits) {
      struct rlimit rl = {l.value, l.value};
      if (l.resource == RLIMIT_CPU) rl.rlim_max = l.value + 1;  // SIGXCPU first, SIGKILL a second later
      setrlimit(l.resource, &rl);
    }
    if (drop_to_nobody) {
      if (syscall(SYS_setgroups, 0, nullptr) != 0 || syscall(SYS_setresgid, kNobody, kNobody, kNobody) != 0 ||
          syscall(SYS_setresuid, kNobody, kNobody, kNobody) != 0)
        fail(errno);
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // cleared by the change of identity
      if (getppid() != parent) _exit(127);
    }
    if (!wrapped && chdir(cwd_s.c_str()) != 0) fail(errno);
    for (int fd : inherit) fcntl(fd, F_SETFD, 0);
    close_all_but(keep);
    if (direct_filter) {
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        fail(errno);
    }
    execve(argv_c[0], argv_c.data(), envp_c.data());
    fail(errno);
  }
  for (int fd : {out_p[1], err_p[1], exec_p[1], sync_p[0], devnull}) close(fd);
  if (seccomp_fd >= 0) close(seccomp_fd);
  if (cg) cg->add(pid, iso);
  char go = 1;
  (void)!write(sync_p[1], &go, 1);
  close(sync_p[1]);
  int child_errno = 0;
  ssize_t got;
  do got = read(exec_p[0], &child_errno, sizeof child_errno);
  while (got < 0 && errno == EINTR);
  close(exec_p[0]);
  auto child = std::make_unique<Child>(pid, out_p[0], err_p[0], std::move(iso), std::move(cg), wrapped,
                                       spec.cpu_seconds);
  if (got == static_cast<ssize_t>(sizeof child_errno)) {
    child.reset();  // reaps it
    throw Error("sandbox: cannot start '" + args[0] + "': " + std::strerror(child_errno));
  }
  return child;
}

std::string SandboxRun::describe() const {
  std::ostringstream s;
  if (!started) s << "could not start: " << error;
  else if (cancelled) s << "cancelled";
  else if (timed_out) s << "timed out after " << std::fixed << std::setprecision(1) << wall_seconds << " s";
  else if (term_signal) s << "killed by signal " << term_signal << " (" << strsignal(term_signal) << ")";
  else s << "exit " << exit_code;
  if (!limit_hit.empty()) s << ": " << limit_hit << " limit reached";
  return s.str();
}

SandboxRun sandbox_run(const SandboxSpec& spec, double wall_seconds, std::size_t max_captured_bytes,
                       const CancelToken* cancel) {
  SandboxRun r;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<SandboxChild> c;
  try {
    c = sandbox_spawn(spec);
  } catch (const Error& e) {
    r.error = e.what();
    return r;
  }
  r.started = true;
  r.isolation = c->isolation();
  auto* child = static_cast<Child*>(c.get());
  struct pollfd fds[2] = {{c->stdout_fd(), POLLIN, 0}, {c->stderr_fd(), POLLIN, 0}};
  std::string* into[2] = {&r.out, &r.err};
  const auto deadline = start + std::chrono::duration<double>(wall_seconds);
  char buf[65536];
  int open_fds = 2;
  auto drain = [&](int timeout_ms) {
    if (poll(fds, 2, timeout_ms) <= 0) return false;
    bool any = false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        std::size_t room = into[i]->size() < max_captured_bytes ? max_captured_bytes - into[i]->size() : 0;
        std::size_t take = std::min(room, static_cast<std::size_t>(k));
        into[i]->append(buf, take);
        r.dropped_bytes += static_cast<std::size_t>(k) - take;
        any = true;
      } else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;  // the child object closes it
        --open_fds;
      }
    }
    return any;
  };
  while (true) {
    auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      r.timed_out = true;
      c->kill_all();
      break;
    }
    if (cancel && cancel->cancelled()) {
      r.cancelled = true;
      c->kill_all();
      break;
    }
    if (child->check_cpu() || child->exited(false)) break;
    if (open_fds > 0) drain(20);
    else usleep(5000);
  }
  int st = c->wait();
  while (open_fds > 0 && drain(0)) {
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (WIFEXITED(st)) r.exit_code = WEXITSTATUS(st);
  if (WIFSIGNALED(st)) r.term_signal = WTERMSIG(st);
  r.limit_hit = c->limit_hit();
  r.peak_memory_bytes = c->peak_memory_bytes();
  return r;
}

}  // namespace kope::exec
