// The sandbox against real hostile behaviour: a child that reads secrets, opens sockets, enters the parent's
// network namespace, leaves a setsid grandchild behind, eats memory across processes, fork-bombs, and a worker
// that confines itself. Each runs in every mode this machine offers; a mode that cannot hold a property says so.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "kope/exec/sandbox.h"
#include "test_support.h"

using namespace kope::exec;

using namespace kope;
namespace fs = std::filesystem;

namespace {

const std::string kTool = KOPE_FAKE_TOOL;

SandboxSpec tool(std::vector<std::string> args, const fs::path& rw = {}) {
  SandboxSpec s;
  s.argv = {kTool};
  s.argv.insert(s.argv.end(), args.begin(), args.end());
  s.env = {"PATH=/usr/bin:/bin", "LANG=C"};
  if (!rw.empty()) {
    s.rw_paths = {rw};
    s.cwd = rw;
  }
  s.memory_bytes = 512ull << 20;
  s.max_processes = 64;
  return s;
}

bool active(const Isolation& iso, const std::string& m) {
  return std::find(iso.active.begin(), iso.active.end(), m) != iso.active.end();
}

std::string missing_reason(const Isolation& iso, const std::string& m) {
  for (const auto& [name, why] : iso.missing)
    if (name == m) return why;
  return "";
}

// The modes each test runs in: whatever this machine gives, then with bubblewrap off (seccomp and cgroups
// remain), then with nothing.
class SandboxModes : public ::testing::TestWithParam<const char*> {
 protected:
  SandboxModes() : env_("KOPE_SANDBOX", *GetParam() ? GetParam() : nullptr) {}
  bool full() const { return !*GetParam(); }
  bool none() const { return std::string(GetParam()) == "none"; }
  test::ScopedEnv env_;
  test::TempDir dir;
};

std::string mode_name(const ::testing::TestParamInfo<const char*>& info) {
  std::string s = *info.param ? info.param : "best";
  for (auto& c : s)
    if (c == '-') c = '_';
  return s;
}

}  // namespace

TEST(Sandbox, CapabilitiesNameEveryMechanismWithAReasonWhenMissing) {
  Isolation iso = sandbox_capabilities();
  std::cout << iso.summary() << "\n";
  EXPECT_TRUE(active(iso, "clean-environment"));
  EXPECT_TRUE(active(iso, "rlimits"));
  for (const char* m : {"user-namespace", "mount-namespace", "pid-namespace", "network-namespace", "ipc-namespace",
                        "unprivileged-uid", "no-capabilities", "seccomp", "cgroup-memory", "cgroup-pids",
                        "cgroup-cpu"}) {
    bool is_missing = !missing_reason(iso, m).empty();
    EXPECT_NE(active(iso, m), is_missing) << m << " must be either active or missing with a reason: "
                                          << iso.summary();
  }
}

TEST(Sandbox, ForcedDegradedModeNamesWhatIsMissingAndStillRuns) {
  test::ScopedEnv env("KOPE_SANDBOX", "none");
  SandboxRun r = sandbox_run(tool({"echo", "alive"}), 20);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  EXPECT_EQ(r.out, "alive");
  for (const char* m : {"user-namespace", "mount-namespace", "pid-namespace", "network-namespace", "seccomp",
                        "cgroup-memory", "cgroup-pids", "cgroup-cpu"}) {
    EXPECT_NE(missing_reason(r.isolation, m).find("KOPE_SANDBOX=none"), std::string::npos)
        << m << ": " << r.isolation.summary();
  }
  EXPECT_FALSE(r.isolation.complete());
  EXPECT_NE(r.isolation.summary().find("missing: "), std::string::npos);
}

TEST_P(SandboxModes, ChildSeesNoSecretsNorTheWorkspace) {
  test::ScopedEnv secret("KOPE_TEST_SECRET", "hunter2");
  // A workspace as kope lays it out; the child gets its job folder only.
  const fs::path ws = dir / "workspace", job = ws / "jobs" / "job-1";
  test::write_text(ws / "kope.db", "SQLite format 3 secret rows\n");
  test::write_text(ws / "golden" / "gelu" / "y.bin", "the answers\n");
  test::write_text(job / "input.txt", "job input\n");

  auto out = [&](std::vector<std::string> args) {
    SandboxRun r = sandbox_run(tool(args, job), 20);
    EXPECT_TRUE(r.started) << r.error;
    return r.out;
  };
  EXPECT_EQ(out({"env", "KOPE_TEST_SECRET"}), "(unset)\n");
  EXPECT_EQ(out({"env", "HOME"}), "(unset)\n");
  EXPECT_EQ(out({"cat", (job / "input.txt").string()}), "job input\n");
  const Isolation iso = sandbox_run(tool({"exit", "0"}, job), 20).isolation;
  if (!active(iso, "mount-namespace") && !active(iso, "unprivileged-uid")) {
    // Only with nothing available (KOPE_SANDBOX=none, as root): the report says so.
    KOPE_RETURN_IF_REPORTED_MISSING(iso, "unprivileged-uid");
  }
  EXPECT_NE(out({"cat", "/etc/shadow"}).find("cannot open"), std::string::npos);
  EXPECT_NE(out({"ls", "/root"}).find("cannot list"), std::string::npos);
  // Without a mount namespace the child sees the whole filesystem as uid 65534 and workspace privacy rests on
  // file modes: the report must say the view is missing.
  KOPE_RETURN_IF_REPORTED_MISSING(iso, "mount-namespace");
  EXPECT_NE(out({"cat", (ws / "kope.db").string()}).find("cannot open"), std::string::npos);
  EXPECT_NE(out({"cat", (job / ".." / ".." / "golden" / "gelu" / "y.bin").string()}).find("cannot open"),
            std::string::npos);
  // The workspace folder exists only as the path to the job folder: nothing of it shows.
  const std::string listing = out({"ls", ws.string()});
  EXPECT_EQ(listing.find("kope.db"), std::string::npos) << listing;
  EXPECT_EQ(listing.find("golden"), std::string::npos) << listing;
  const char* home = std::getenv("HOME");
  if (home && *home) {
    EXPECT_NE(out({"ls", home}).find("cannot list"), std::string::npos);
  }
}

TEST_P(SandboxModes, NoNetworkOfAnyKind) {
  if (none()) {  // with nothing available sockets are not filtered: the report must say so
    const Isolation iso = sandbox_run(tool({"exit", "0"}), 20).isolation;
    KOPE_RETURN_IF_REPORTED_MISSING(iso, "seccomp");
  }
  // A TCP and a UDP server on 127.0.0.1 and a unix socket server in a folder the child can see.
  int tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), udp = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
  int uds = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
  ASSERT_GE(tcp, 0);
  ASSERT_GE(udp, 0);
  ASSERT_GE(uds, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(bind(tcp, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(tcp, 4), 0);
  ASSERT_EQ(getsockname(tcp, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string tcp_port = std::to_string(ntohs(a.sin_port));
  a.sin_port = 0;
  ASSERT_EQ(bind(udp, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  len = sizeof a;
  ASSERT_EQ(getsockname(udp, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const std::string udp_port = std::to_string(ntohs(a.sin_port));
  const fs::path sock = dir / "server.sock";
  sockaddr_un u{};
  u.sun_family = AF_UNIX;
  std::snprintf(u.sun_path, sizeof u.sun_path, "%s", sock.c_str());
  ASSERT_EQ(bind(uds, reinterpret_cast<sockaddr*>(&u), sizeof u), 0);
  chmod(sock.c_str(), 0777);
  ASSERT_EQ(listen(uds, 4), 0);

  for (auto [kind, target] : {std::pair<std::string, std::string>{"tcp", tcp_port}, {"udp", udp_port},
                              {"unix", sock.string()}}) {
    SandboxRun r = sandbox_run(tool({"connect", kind, target}, dir.path()), 20);
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_NE(r.out.find("denied"), std::string::npos) << kind << ": " << r.out << r.err;
  }
  char buf[8];
  EXPECT_LT(accept(tcp, nullptr, nullptr), 0) << "a TCP connection reached the test's server";
  EXPECT_LT(recv(udp, buf, sizeof buf, 0), 0) << "a UDP datagram reached the test's server";
  EXPECT_LT(accept(uds, nullptr, nullptr), 0) << "a unix connection reached the test's server";
  close(tcp);
  close(udp);
  close(uds);
}

TEST_P(SandboxModes, CannotEnterTheParentsNetworkNamespace) {
  if (none()) {  // with nothing available setns is not filtered: the report must say so
    const Isolation iso = sandbox_run(tool({"exit", "0"}), 20).isolation;
    KOPE_RETURN_IF_REPORTED_MISSING(iso, "seccomp");
  }
  for (std::string target : {"/proc/" + std::to_string(getpid()) + "/ns/net", std::string("/proc/1/ns/net")}) {
    SandboxRun r = sandbox_run(tool({"setns", target}), 20);
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_NE(r.out.find("denied"), std::string::npos) << target << ": " << r.out << r.err;
  }
}

TEST_P(SandboxModes, ASetsidGrandchildDiesWithTheTree) {
  Isolation caps = sandbox_capabilities();
  if (!active(caps, "pid-namespace") && !active(caps, "cgroup-pids") && !active(caps, "cgroup-memory")) {
    KOPE_RETURN_IF_REPORTED_MISSING(caps, "pid-namespace");
  }
  const fs::path beat = dir / "beat";
  auto child = sandbox_spawn(tool({"heartbeat", beat.string()}, dir.path()));
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!fs::exists(beat) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(beat)) << "the grandchild never started";
  child.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto before = fs::file_size(beat);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  EXPECT_EQ(fs::file_size(beat), before) << "the setsid grandchild is still writing after the tree was destroyed";
}

TEST_P(SandboxModes, MemoryIsLimitedForTheWholeTree) {
  Isolation caps = sandbox_capabilities();
  KOPE_RETURN_IF_REPORTED_MISSING(caps, "cgroup-memory");
  SandboxSpec s = tool({"children", "6", "200"});
  s.memory_bytes = 256ull << 20;
  SandboxRun r = sandbox_run(s, 60);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.out.find("ok 6 of 6"), std::string::npos) << "six 200 MiB children all ran under a 256 MiB limit";
  EXPECT_EQ(r.limit_hit, "memory") << r.describe() << " " << r.out;
  EXPECT_LE(r.peak_memory_bytes, 256ull << 20);
  // And under a roomy limit the same work passes, so the failure above is the limit's doing.
  s.memory_bytes = 2048ull << 20;
  SandboxRun roomy = sandbox_run(s, 60);
  EXPECT_NE(roomy.out.find("ok 6 of 6"), std::string::npos) << roomy.describe() << roomy.out << roomy.err;
}

TEST_P(SandboxModes, AForkBombIsBounded) {
  Isolation caps = sandbox_capabilities();
  if (getuid() == 0) {  // RLIMIT_NPROC does not bind root: only the pids cgroup can
    KOPE_RETURN_IF_REPORTED_MISSING(caps, "cgroup-pids");
  }
  SandboxSpec s = tool({"fork-bomb"});
  s.max_processes = 32;
  SandboxRun r = sandbox_run(s, 30);
  ASSERT_TRUE(r.started) << r.error;
  int forked = -1;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "forked %d", &forked), 1) << r.out << r.err;
  EXPECT_LT(forked, 32) << r.out;
  if (active(caps, "cgroup-pids")) {
    EXPECT_EQ(r.limit_hit, "process count");
  }
}

TEST_P(SandboxModes, CpuTimeIsLimited) {
  SandboxSpec s = tool({"burn"});
  s.cpu_seconds = 1;
  SandboxRun r = sandbox_run(s, 30);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_FALSE(r.timed_out) << "the CPU limit did not stop it before the wall clock";
  EXPECT_NE(r.term_signal, 0) << r.describe();
  EXPECT_EQ(r.limit_hit, "cpu time") << r.describe();
}

TEST_P(SandboxModes, RunsAsAnUnprivilegedUser) {
  SandboxRun r = sandbox_run(tool({"uid"}), 20);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  KOPE_RETURN_IF_REPORTED_MISSING(r.isolation, "unprivileged-uid");
  EXPECT_NE(r.out, "0\n");
  EXPECT_EQ(r.out, "65534\n");
}

TEST_P(SandboxModes, SignalsAreReportedAsSignals) {
  SandboxRun r = sandbox_run(tool({"segv"}), 20);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.term_signal, SIGSEGV) << r.describe() << r.err;
  SandboxRun e = sandbox_run(tool({"exit", "3"}), 20);
  EXPECT_EQ(e.exit_code, 3) << e.describe();
  EXPECT_EQ(e.term_signal, 0);
}

TEST_P(SandboxModes, KeptDescriptorsReachTheChild) {
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  SandboxSpec s = tool({"readfd", std::to_string(p[0])});
  s.keep_fds = {p[0]};
  ASSERT_EQ(write(p[1], "through the pipe\n", 17), 17);
  close(p[1]);
  SandboxRun r = sandbox_run(s, 20);
  close(p[0]);
  EXPECT_EQ(r.out, "through the pipe\n") << r.describe() << r.err;
}

TEST_P(SandboxModes, AMissingPathIsAnErrorNamingIt) {
  SandboxSpec s = tool({"exit", "0"});
  s.ro_paths = {dir / "no-such-folder"};
  try {
    sandbox_spawn(s);
    FAIL() << "spawned with a missing path";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-folder"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, SandboxModes, ::testing::Values("", "no-bwrap", "none"), mode_name);

// A worker confines itself and then must not open sockets, exec, make namespaces, trace or start a process;
// threads work.
TEST(SandboxConfine, TheWorkerFilterDeniesWhatItShouldAndKeepsThreads) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(p[0]);
    std::string report;
    auto note = [&](const std::string& s) { report += s + "\n"; };
    std::string why = confine_current_process();
    if (!why.empty()) note("confine: " + why);
    for (int family : {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK}) {
      int fd = socket(family, SOCK_STREAM, 0);
      if (fd >= 0 || errno != EPERM) note("socket(" + std::to_string(family) + ") allowed");
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0) note("socketpair allowed");
    if (unshare(CLONE_NEWNET) == 0 || errno != EPERM) note("unshare allowed");
    if (unshare(CLONE_NEWUSER) == 0 || errno != EPERM) note("unshare(user) allowed");
    if (syscall(SYS_clone3, nullptr, 0) != -1 || errno != ENOSYS) note("clone3 not ENOSYS");
    int nsfd = open("/proc/1/ns/net", O_RDONLY);
    if (nsfd >= 0 && (setns(nsfd, 0) == 0 || errno != EPERM)) note("setns allowed");
    if (syscall(SYS_ptrace, 0 /*PTRACE_TRACEME*/, 0, 0, 0) == 0 || errno != EPERM) note("ptrace allowed");
    if (syscall(SYS_process_vm_readv, getppid(), nullptr, 0, nullptr, 0, 0) == 0 || errno != EPERM)
      note("process_vm_readv allowed");
    if (syscall(SYS_io_uring_setup, 1, nullptr) == 0 || errno != EPERM) note("io_uring allowed");
    char* args[] = {const_cast<char*>("/bin/true"), nullptr};
    execv("/bin/true", args);
    if (errno != EPERM) note("execve not EPERM");
    // What must keep working.
    int seen = 0;
    std::thread t([&] { seen = 1; });
    t.join();
    if (seen != 1) note("threads broken");
    // And what a worker may no longer do: start a process (its CPU would be outside the worker's clock).
    pid_t f = fork();
    if (f == 0) _exit(7);
    if (f >= 0 || errno != EPERM) note("fork allowed");
    if (f > 0) waitpid(f, nullptr, 0);
    (void)!write(p[1], report.data(), report.size());
    _exit(0);
  }
  close(p[1]);
  std::string report;
  char buf[4096];
  ssize_t n;
  while ((n = read(p[0], buf, sizeof buf)) > 0) report.append(buf, static_cast<std::size_t>(n));
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the confined child died: status " << status;
  EXPECT_EQ(report, "");
}

// Without bubblewrap, root runs the program as nobody; a path nobody cannot reach is a clear error, never a reason
// to run it as root.
TEST(SandboxDirect, RootNeverRunsUntrustedCodeAsRootForAPathNobodyCannotReach) {
  ASSERT_EQ(getuid(), 0u) << "only root drops to nobody: the test command runs as root (README)";
  test::ScopedEnv env("KOPE_SANDBOX", "none");
  test::TempDir dir;
  const fs::path closed = dir / "closed", job = closed / "job";
  fs::create_directories(job);
  fs::permissions(closed, fs::perms::owner_all);
  KOPE_RETURN_IF_REPORTED_MISSING(sandbox_capabilities(), "unprivileged-uid");
  SandboxRun r = sandbox_run(tool({"uid"}, job), 20);
  EXPECT_FALSE(r.started) << r.out;
  EXPECT_NE(r.error.find("cannot reach"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find(closed.string()), std::string::npos) << r.error;
  fs::permissions(closed, fs::perms::owner_all | fs::perms::others_exec);
  SandboxRun ok = sandbox_run(tool({"uid"}, job), 20);
  EXPECT_EQ(ok.out, "65534\n") << ok.describe() << ok.error;
}
