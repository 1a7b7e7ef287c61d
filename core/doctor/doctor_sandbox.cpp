// `kope doctor`, the sandbox and device checks: user namespaces, bubblewrap, seccomp and cgroups as the sandbox
// itself probes them (sandbox_capabilities, cgroup_plan), and the devices as `kope devices` lists them.
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kope/doctor/doctor_internal.h"
#include "kope/device/device.h"
#include "kope/exec/ledger.h"
#include "kope/base/process.h"
#include "kope/exec/sandbox.h"
#include "kope/exec/sandbox_internal.h"

using namespace kope::exec;

namespace kope::doctor::detail {

namespace fs = std::filesystem;

namespace {

bool has(const std::vector<std::string>& list, const std::string& x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

std::string missing_why(const Isolation& iso, const std::string& mech) {
  for (const auto& [m, why] : iso.missing)
    if (m == mech) return why;
  return "";
}

// A note that $KOPE_SANDBOX weakens the sandbox on purpose, unless `text` already says so.
std::string forced_note(const std::string& text) {
  const char* f = std::getenv("KOPE_SANDBOX");
  if (!f || !*f || text.find("KOPE_SANDBOX") != std::string::npos) return "";
  return std::string("; KOPE_SANDBOX=") + f + " weakens the sandbox on purpose";
}

// Whether this process may make a user namespace now: a forked child tries. "" or the OS's reason.
std::string try_user_namespace() {
  const pid_t pid = fork();
  if (pid < 0) return std::string("fork: ") + std::strerror(errno);
  if (pid == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : (errno & 0x7f));
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return "";
  return WIFEXITED(st) ? std::strerror(WEXITSTATUS(st)) : "the probe died";
}

}  // namespace

DoctorCheck check_user_namespaces(const SysView& sys) {
  DoctorCheck c = make_check("user-namespaces", "sandbox", "User namespaces");
  std::vector<std::string> knobs;
  bool denied_to_users = false;
  if (auto v = sys.line("/proc/sys/kernel/unprivileged_userns_clone")) {
    knobs.push_back("kernel.unprivileged_userns_clone=" + *v);
    denied_to_users = denied_to_users || *v == "0";
  } else {
    knobs.push_back("kernel.unprivileged_userns_clone absent (no such restriction)");
  }
  if (auto v = sys.line("/proc/sys/user/max_user_namespaces")) {
    knobs.push_back("user.max_user_namespaces=" + *v);
    denied_to_users = denied_to_users || *v == "0";
  } else {
    knobs.push_back(absent("/proc/sys/user/max_user_namespaces"));
  }
  if (auto v = sys.line("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")) {
    knobs.push_back("kernel.apparmor_restrict_unprivileged_userns=" + *v);
    denied_to_users = denied_to_users || *v == "1";
  }
  std::string knob_text;
  for (const auto& k : knobs) knob_text += (knob_text.empty() ? "" : ", ") + k;
  const std::string why = try_user_namespace();
  const std::string who = getuid() == 0 ? "root" : "uid " + std::to_string(getuid());
  if (why.empty()) {
    c.verdict = Verdict::Ok;
    c.found = who + " can make a user namespace (tried); " + knob_text;
    if (getuid() == 0 && denied_to_users) {
      c.found += "; other users cannot";
      c.todo = "a desktop user running kope needs them: sysctl -w kernel.unprivileged_userns_clone=1 "
               "(or user.max_user_namespaces above 0)";
    }
    return c;
  }
  c.verdict = Verdict::Warn;
  c.found = who + " cannot make a user namespace: " + why + "; " + knob_text;
  c.todo = "bubblewrap needs them: sysctl -w kernel.unprivileged_userns_clone=1 and user.max_user_namespaces=15000 "
           "(as root; persist in /etc/sysctl.d/)";
  c.because = "no user namespaces: the sandbox cannot hide the filesystem from candidates";
  return c;
}

DoctorCheck check_bubblewrap() {
  DoctorCheck c = make_check("bubblewrap", "sandbox", "Bubblewrap (namespaces)");
  const Isolation iso = sandbox_capabilities();
  std::string path;
  for (const char* d : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"})
    if (access(d, X_OK) == 0) {
      path = d;
      break;
    }
  std::string version;
  if (!path.empty()) {
    ProcessLimits lim;
    lim.wall_seconds = 10;
    ProcessResult r = run_process({path, "--version"}, lim);
    version = r.ok() ? r.out.substr(0, r.out.find('\n')) : "--version failed: " + r.describe();
  }
  const std::string where = path.empty() ? "bwrap not found" : path + " (" + version + ")";
  if (has(iso.active, "mount-namespace")) {
    c.verdict = Verdict::Ok;
    c.found = where + ": candidates and the compiler run in their own user, mount, pid, ipc, uts, cgroup and "
              "network namespaces as uid 65534 without capabilities";
    if (const std::string nested = missing_why(iso, "no-nested-user-namespaces"); !nested.empty()) {
      c.verdict = Verdict::Warn;
      c.found += "; cannot forbid nested user namespaces (--disable-userns): " + nested;
      c.todo = "bubblewrap 0.8 and a kernel that allows --disable-userns close this; seccomp still refuses unshare";
      c.because = "candidates could make nested user namespaces (seccomp still refuses them)";
      return c;
    }
    c.because = "candidates run in namespaces as an unprivileged uid, seeing only their own job folder";
    return c;
  }
  c.verdict = Verdict::Warn;
  c.found = where + ": " + missing_why(iso, "mount-namespace");
  c.found += forced_note(c.found);
  c.todo = path.empty() ? "apt-get install bubblewrap (Debian), then run kope doctor again"
                        : "see the user namespaces line: bubblewrap needs them (or a setuid bwrap)";
  const std::string uid = missing_why(iso, "unprivileged-uid");
  c.because = "no namespaces: candidates see the whole filesystem" +
              (uid.empty() ? std::string(" (they still run as uid 65534)") : " and run as the caller's uid");
  return c;
}

DoctorCheck check_seccomp() {
  DoctorCheck c = make_check("seccomp", "sandbox", "Seccomp filter");
  const Isolation iso = sandbox_capabilities();
  const scmp_version* lib = seccomp_version();
  const std::string libv = lib ? "libseccomp " + std::to_string(lib->major) + "." + std::to_string(lib->minor) +
                                     "." + std::to_string(lib->micro)
                               : "libseccomp (version unknown)";
  errno = 0;
  const bool kernel = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 || errno != EINVAL;
  if (has(iso.active, "seccomp") && kernel) {
    c.verdict = Verdict::Ok;
    c.found = libv + "; the kernel filters system calls; candidates may not open sockets, make namespaces, "
              "ptrace, mount, exec or start processes (threads only)";
    c.because = "a seccomp filter keeps candidates off the network and other processes";
    return c;
  }
  c.verdict = Verdict::Warn;
  c.found = libv + "; " + (kernel ? missing_why(iso, "seccomp") : "the kernel has no seccomp (PR_GET_SECCOMP: EINVAL)");
  c.found += forced_note(c.found);
  c.todo = kernel ? "unset KOPE_SANDBOX if it is set; else report the reason above"
                  : "use a kernel built with CONFIG_SECCOMP_FILTER";
  c.because = "no seccomp filter: a candidate could open sockets or trace other processes";
  return c;
}

DoctorCheck check_cpu_clock(const SysView& sys) {
  DoctorCheck c = make_check("cpu-clock", "sandbox", "Exact CPU clock on workers (perf task-clock)");
  // What the judge does to every worker: a task-clock counter on another process, inherited by its threads.
  std::string paranoid;
  if (std::ifstream in(sys.at("/proc/sys/kernel/perf_event_paranoid")); in) std::getline(in, paranoid);
  const pid_t child = fork();
  if (child == 0) {
    pause();
    _exit(0);
  }
  std::string why;
  bool ok = false;
  if (child < 0) {
    why = std::string("fork: ") + std::strerror(errno);
  } else {
    const int fd = open_task_clock(child, why);
    uint64_t v = 0;
    if (fd >= 0) ok = read(fd, &v, sizeof v) == static_cast<ssize_t>(sizeof v);
    if (fd >= 0) close(fd);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
  }
  const std::string setting = "perf_event_paranoid " + (paranoid.empty() ? std::string("unknown") : paranoid);
  if (ok) {
    c.verdict = Verdict::Ok;
    c.found = "the judge reads each worker's CPU, all its threads, to the nanosecond (" + setting + ")";
    c.because = "the end of every call is checked on a CPU clock no kernel can write";
    return c;
  }
  c.verdict = Verdict::Warn;
  c.found = why + " (" + setting + "); the judge falls back to the process clock, exact only at ticks";
  c.todo = "run kope as root, or allow per-process perf counters: sysctl kernel.perf_event_paranoid=2";
  c.because = "work a kernel does just after it says \"done\" is seen only to within a tick (up to 10 ms a call)";
  return c;
}

namespace {

// "v2 (unified)", "hybrid (v1 controllers ...; v2 at ...)", "v1 (...)" from the mount table.
std::string cgroup_version(const SysView& sys) {
  std::ifstream in(sys.at("/proc/self/mountinfo"));
  if (!in) return absent("/proc/self/mountinfo");
  std::string line, v2_at, v1;
  while (std::getline(in, line)) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream pre(line.substr(0, dash)), post(line.substr(dash + 3));
    std::string id, parent, dev, root, point, fstype, source, super;
    pre >> id >> parent >> dev >> root >> point;
    post >> fstype >> source >> super;
    if (fstype == "cgroup2") v2_at = point;
    if (fstype != "cgroup") continue;
    std::istringstream opts(super);
    std::string o;
    while (std::getline(opts, o, ','))
      if (o != "rw" && o != "ro" && o.rfind("name=", 0) != 0 && o.find('=') == std::string::npos &&
          o != "relatime" && o != "nosuid" && o != "nodev" && o != "noexec")
        v1 += (v1.empty() ? "" : " ") + o;
  }
  if (v1.empty() && v2_at.empty()) return "no cgroup file system mounted";
  if (v1.empty()) return "v2 (unified at " + v2_at + ")";
  if (v2_at.empty()) return "v1 (" + v1 + ")";
  return "hybrid (v1: " + v1 + "; v2 at " + v2_at + ")";
}

std::string controller(const char* name, const fs::path& parent, bool v2, const std::string& why) {
  if (parent.empty()) return std::string(name) + ": not obtained (" + why + ")";
  return std::string(name) + ": " + (v2 ? "v2 " : "v1 ") + parent.string();
}

}  // namespace

DoctorCheck check_cgroups(const SysView& sys) {
  DoctorCheck c = make_check("cgroups", "sandbox", "Cgroups (whole-tree limits)");
  const Isolation iso = sandbox_capabilities();
  const exec::detail::CgroupPlan& p = exec::detail::cgroup_plan();
  c.found = cgroup_version(sys) + "; " + controller("memory", p.memory_parent, p.memory_v2, p.memory_why) + "; " +
            controller("pids", p.pids_parent, p.pids_v2, p.pids_why) + "; " +
            controller("cpu", p.cpu_parent, p.cpu_v2, p.cpu_why);
  for (const char* m : {"cgroup-memory", "cgroup-pids", "cgroup-cpu"})
    if (const std::string why = missing_why(iso, m); !why.empty() && c.found.find(why) == std::string::npos)
      c.found += "; not used: " + why;
  std::vector<std::string> lacking;
  for (const char* m : {"cgroup-memory", "cgroup-pids", "cgroup-cpu"})
    if (!has(iso.active, m)) lacking.push_back(std::string(m).substr(7));
  if (lacking.empty()) {
    c.verdict = Verdict::Ok;
    c.because = "each sandboxed tree has its own cgroup: memory, process count and CPU time are bounded and "
                "measured for the whole tree, and a kill reaches every descendant";
    return c;
  }
  std::string list;
  for (std::size_t i = 0; i < lacking.size(); ++i)
    list += (i == 0 ? "" : i + 1 == lacking.size() ? " or " : ", ") + lacking[i];
  c.verdict = Verdict::Warn;
  c.todo = "run kope where it may make child cgroups: as root, or in a delegated cgroup v2 subtree "
           "(systemd-run --user --scope -p Delegate=yes kope ...) or set $KOPE_CGROUP to a writable one";
  c.because = "no " + list + " cgroup: those limits fall back to per-process rlimits";
  return c;
}

DoctorCheck check_devices() {
  DoctorCheck c = make_check("devices", "devices", "Devices");
  std::string found;
  bool can_time = false;
  std::vector<std::string> kinds = device::device_kinds();
  std::stable_partition(kinds.begin(), kinds.end(), [](const std::string& k) { return k == "cpu"; });  // cpu first
  for (const auto& kind : kinds) {
    try {
      std::unique_ptr<device::Device> d = device::make_device(kind);
      const device::Availability a = d->availability();
      const device::Capabilities caps = d->capabilities();
      std::string what = !a.available ? "absent" : caps.can_time ? "build, run, time" : caps.can_run ? "build, run"
                                                                  : caps.can_build ? "build only" : "present";
      std::string model;
      if (a.available) model = d->fingerprint().model;
      found += (found.empty() ? "" : "; ") + d->name() + ": " + what + (model.empty() ? "" : " (" + model + ")") +
               (a.available && caps.can_time ? "" : " (" + a.reason + ")");
      can_time = can_time || (a.available && caps.can_time);
    } catch (const std::exception& e) {
      found += (found.empty() ? "" : "; ") + kind + ": cannot be probed: " + e.what();
    }
  }
  c.found = found;
  c.verdict = can_time ? Verdict::Ok : Verdict::Fail;
  if (!can_time) c.todo = "no device here can time kernels; see `kope devices` for why each is absent";
  c.because = can_time ? "" : "no device here can time kernels";
  return c;
}

}  // namespace kope::doctor::detail
