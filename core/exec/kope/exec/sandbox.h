// Least privilege for code kope does not trust (candidate kernels, the compiler): namespaces through bubblewrap,
// a seccomp filter through libseccomp, and whole-tree limits through cgroups, each used where the system allows
// and reported where it does not.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace kope {
class CancelToken;
}

namespace kope::exec {

// What confined a process: each mechanism by name ("user-namespace", "mount-namespace", "pid-namespace",
// "network-namespace", "ipc-namespace", "unprivileged-uid", "no-capabilities", "clean-environment",
// "seccomp", "cgroup-memory", "cgroup-pids", "cgroup-cpu", "rlimits"), and for each missing one why.
struct Isolation {
  std::vector<std::string> active;
  std::vector<std::pair<std::string, std::string>> missing;  // mechanism, reason
  bool complete() const { return missing.empty(); }
  std::string summary() const;  // "isolated: a, b; missing: c (why)"
};

struct SandboxSpec {
  std::vector<std::string> argv;                  // argv[0]: an absolute path
  std::vector<std::filesystem::path> ro_paths;    // visible read-only at the same path (files or folders)
  std::vector<std::filesystem::path> rw_paths;    // visible read-write at the same path (handed to uid 65534
                                                  // when root runs it without bubblewrap)
  std::vector<int> keep_fds;                      // stay open with the same numbers in the child
  std::vector<std::filesystem::path> dev_paths;   // device nodes (/dev/nvidia0, /dev/davinci0, ...) the child may
                                                  // open, bound with --dev-bind where they exist; the rest of /dev
                                                  // is bubblewrap's minimal one
  std::filesystem::path cwd;                      // must be inside ro_paths or rw_paths
  std::vector<std::string> env;                   // the child's whole environment ("NAME=value")
  bool network = false;                           // false: no network of any kind
  uint64_t memory_bytes = 0;                      // the whole process tree; 0: unlimited
  uint64_t max_processes = 0;                     // tasks (processes + threads) of the whole tree; 0: unlimited
  double cpu_seconds = 0;                         // CPU time of the whole tree; 0: unlimited
  uint64_t max_file_bytes = 0;                    // RLIMIT_FSIZE; 0: unlimited
};

// A running sandboxed process tree. Destroying it kills the whole tree and waits for it.
class SandboxChild {
 public:
  virtual ~SandboxChild() = default;
  // The process kope forked: bubblewrap when wrapped (killing it kills the whole pid namespace, since the
  // namespace's init dies with it), else the program itself, leader of its own session and process group.
  virtual pid_t pid() const = 0;
  virtual int stdout_fd() const = 0;      // read ends of pipes to its stdout and stderr
  virtual int stderr_fd() const = 0;
  virtual const Isolation& isolation() const = 0;
  virtual void kill_all() = 0;            // every descendant, at once
  // Waits for the main process; returns the raw wait status. After it the tree is dead. When wrapped, an exit
  // status 128+N from bubblewrap (its way of saying "killed by signal N") is returned as a death by signal N.
  // Enforces cpu_seconds on the whole tree while it waits (where a cgroup counts it).
  virtual int wait() = 0;
  // Peak memory of the whole tree in bytes where a cgroup measured it, else 0.
  virtual uint64_t peak_memory_bytes() const = 0;
  // CPU seconds used by the whole tree where a cgroup counts it, else -1.
  virtual double cpu_seconds() const { return -1; }
  // Which whole-tree limit was enforced: "memory", "process count", "cpu time", or "" for none seen.
  virtual std::string limit_hit() const { return ""; }
};

// Starts `spec` confined as tightly as this system allows. Throws kope::Error when it cannot start at all.
// The child is killed when the *thread* that spawned it ends (PR_SET_PDEATHSIG), so spawn from a thread that
// outlives it.
std::unique_ptr<SandboxChild> sandbox_spawn(const SandboxSpec& spec);

// What sandbox_spawn would manage here (probed once, cached). $KOPE_SANDBOX forces a weaker mode, for tests
// and for systems where a mechanism misbehaves: "none" (no bubblewrap, no cgroups, no seccomp), or a comma list
// of "no-bwrap", "no-cgroup", "no-seccomp".
Isolation sandbox_capabilities();

// A sandboxed command run to its end with its output captured, under a wall-clock limit.
struct SandboxRun {
  bool started = false;    // false: see error
  bool timed_out = false;
  bool cancelled = false;  // the cancel token was set: the tree was killed
  int exit_code = -1;      // when it exited
  int term_signal = 0;     // when a signal ended it
  std::string limit_hit;   // as SandboxChild::limit_hit()
  std::string out, err;    // captured, each up to the cap
  std::size_t dropped_bytes = 0;
  double wall_seconds = 0;
  uint64_t peak_memory_bytes = 0;
  Isolation isolation;
  std::string error;
  bool ok() const { return started && !timed_out && !cancelled && term_signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exit 1", "killed by signal 9 (SIGKILL): memory limit reached", ...
};
// A set `cancel` kills the whole tree within ~20 ms (SandboxRun::cancelled).
SandboxRun sandbox_run(const SandboxSpec& spec, double wall_seconds, std::size_t max_captured_bytes = 1 << 20,
                       const CancelToken* cancel = nullptr);

// Called inside a worker after its own set-up and before it loads untrusted code: installs the seccomp filter
// (no socket creation or connection of any family, no setns/unshare/mount/ptrace/process_vm_*/bpf/keyctl/
// perf_event_open, no new namespaces through clone, no execve, and no new processes: threads only). Returns "" on
// success, else why it could not.
std::string confine_current_process();

}  // namespace kope::exec
