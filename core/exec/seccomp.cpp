// The seccomp filters of the sandbox, built with libseccomp: default allow, and a deny list of what untrusted code
// has no business doing (any socket, new namespaces, mounts, tracing other processes, kernel keyrings, BPF, ...).
#include <errno.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "kope/exec/sandbox_internal.h"

namespace kope::exec::detail {

namespace {

// Syscalls no sandboxed program may make; they fail with EPERM. Names unknown on this architecture are skipped.
constexpr const char* kNetwork[] = {
    // networking of every family, including unix sockets
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "socketcall",
};
constexpr const char* kDenied[] = {
    // io_uring can open sockets and files behind the filter's back
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    // namespaces and the filesystem view
    "setns", "unshare", "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount",
    "fspick", "move_mount", "open_tree", "mount_setattr", "open_by_handle_at", "name_to_handle_at",
    // other processes
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "process_madvise", "kcmp",
    // kernel facilities
    "bpf", "keyctl", "add_key", "request_key", "perf_event_open", "userfaultfd", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "iopl", "ioperm", "uselib", "swapon", "swapoff", "acct",
    "quotactl", "lookup_dcookie", "fanotify_init", "syslog",
};

// (CLONE_NEWTIME exists only for clone3 and unshare, both refused; in clone's flags that bit is the exit signal's.)
constexpr uint64_t kNewNamespaceFlags[] = {CLONE_NEWNS,   CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                           CLONE_NEWUSER, CLONE_NEWPID,    CLONE_NEWNET};

std::string build(scmp_filter_ctx ctx, bool allow_exec, bool allow_network, bool allow_processes = true) {
  auto add = [&](const char* name, uint32_t action) -> std::string {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR) return "";
    int rc = seccomp_rule_add(ctx, action, nr, 0);
    // -EDOM/-EINVAL come back for syscalls this architecture only knows as multiplexed ones; they are covered
    // by the multiplexer (socketcall) or do not exist here.
    if (rc != 0 && rc != -EDOM && rc != -EINVAL && rc != -EOPNOTSUPP)
      return std::string("seccomp_rule_add(") + name + "): " + std::strerror(-rc);
    return "";
  };
  if (!allow_network)
    for (const char* name : kNetwork)
      if (std::string e = add(name, SCMP_ACT_ERRNO(EPERM)); !e.empty()) return e;
  for (const char* name : kDenied)
    if (std::string e = add(name, SCMP_ACT_ERRNO(EPERM)); !e.empty()) return e;
  if (!allow_exec)
    for (const char* name : {"execve", "execveat"})
      if (std::string e = add(name, SCMP_ACT_ERRNO(EPERM)); !e.empty()) return e;
  // clone3 passes its flags in memory a filter cannot read: refuse it as unknown, so libc falls back to clone,
  // whose flags are checked below. Threads and fork keep working through clone.
  if (std::string e = add("clone3", SCMP_ACT_ERRNO(ENOSYS)); !e.empty()) return e;
  for (uint64_t flag : kNewNamespaceFlags) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    if (rc != 0) return std::string("seccomp_rule_add(clone): ") + std::strerror(-rc);
  }
  // No new processes (a worker about to load a kernel): threads only. A process the kernel started would run
  // outside the worker's CPU clock, which is how the judge tells a call from work done after it returns.
  if (!allow_processes) {
    for (const char* name : {"fork", "vfork"})
      if (std::string e = add(name, SCMP_ACT_ERRNO(EPERM)); !e.empty()) return e;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, uint64_t{CLONE_THREAD}, 0));
    if (rc != 0) return std::string("seccomp_rule_add(clone without CLONE_THREAD): ") + std::strerror(-rc);
  }
  // personality(): no turning address randomisation off, no executable data.
  for (uint64_t flag : {uint64_t{0x0040000} /* ADDR_NO_RANDOMIZE */, uint64_t{0x0400000} /* READ_IMPLIES_EXEC */}) {
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    if (rc != 0) return std::string("seccomp_rule_add(personality): ") + std::strerror(-rc);
  }
  return "";
}

struct Ctx {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  ~Ctx() {
    if (ctx) seccomp_release(ctx);
  }
};

}  // namespace

std::string seccomp_program(bool allow_exec, bool allow_network, std::vector<sock_filter>& program) {
  Ctx c;
  if (!c.ctx) return "seccomp_init failed (libseccomp)";
  if (std::string e = build(c.ctx, allow_exec, allow_network); !e.empty()) return e;
  int fd = memfd_create("kope-seccomp", MFD_CLOEXEC);
  if (fd < 0) return std::string("memfd_create: ") + std::strerror(errno);
  std::string why;
  if (int rc = seccomp_export_bpf(c.ctx, fd); rc != 0) why = std::string("seccomp_export_bpf: ") + std::strerror(-rc);
  off_t size = lseek(fd, 0, SEEK_END);
  if (why.empty() && (size <= 0 || size % sizeof(sock_filter) != 0)) why = "seccomp_export_bpf wrote no program";
  if (why.empty()) {
    program.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
    if (pread(fd, program.data(), static_cast<std::size_t>(size), 0) != size) why = "cannot read the exported filter";
  }
  close(fd);
  return why;
}

}  // namespace kope::exec::detail

namespace kope::exec {

std::string confine_current_process() {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
  detail::Ctx c;
  if (!c.ctx) return "seccomp_init failed (libseccomp)";
  if (std::string e = detail::build(c.ctx, /*allow_exec=*/false, /*allow_network=*/false, /*allow_processes=*/false);
      !e.empty())
    return e;
  if (int rc = seccomp_load(c.ctx); rc != 0) return std::string("seccomp_load: ") + std::strerror(-rc);
  return "";
}

}  // namespace kope::exec
