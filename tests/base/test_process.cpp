// kope::run_process against a real external program (kope_fake_tool): exit codes, output capture, signals,
// timeouts that take the whole process group with them, resource limits, cwd and environment.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "kope/base/process.h"
#include "test_support.h"

namespace kope {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

const std::string kTool = KOPE_FAKE_TOOL;

ProcessLimits quick(double wall = 10.0) {
  ProcessLimits l;
  l.wall_seconds = wall;
  return l;
}

ProcessResult tool(std::vector<std::string> args, const ProcessLimits& limits = quick(),
                   const fs::path& cwd = {}, const std::vector<std::string>& env = {}) {
  args.insert(args.begin(), kTool);
  return run_process(args, limits, cwd, env);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The state letter of /proc/PID/stat ('R', 'S', 'Z', ...), or 0 if it cannot be read.
char proc_state(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(f, line)) return 0;
  auto close_paren = line.rfind(')');
  if (close_paren == std::string::npos || close_paren + 2 >= line.size()) return 0;
  return line[close_paren + 2];
}

// Whether `pid` is gone (or only a zombie waiting for a reaper) within `seconds`.
bool dies_within(pid_t pid, double seconds) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (kill(pid, 0) == -1 && errno == ESRCH) return true;
    if (proc_state(pid) == 'Z') return true;
    if (seconds_since(start) > seconds) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

pid_t read_pid(const fs::path& pidfile) {
  std::ifstream f(pidfile);
  long pid = 0;
  f >> pid;
  return static_cast<pid_t>(pid);
}

// Kills a grandchild left behind by a failing test, so one failure does not leave a sleeper running.
struct KillOnExit {
  pid_t pid = 0;
  ~KillOnExit() {
    if (pid > 1 && pid != getpid()) kill(pid, SIGKILL);
  }
};

TEST(Process, ExitZeroIsOk) {
  ProcessResult r = tool({"exit", "0"});
  EXPECT_TRUE(r.started);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.describe(), "exit 0");
  EXPECT_GT(r.wall_seconds, 0.0);
  EXPECT_LT(r.wall_seconds, 5.0);
}

TEST(Process, NonZeroExitCodeIsReported) {
  ProcessResult r = tool({"exit", "3"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "exit 3");

  ProcessResult big = tool({"exit", "200"});
  EXPECT_EQ(big.exit_code, 200);
}

TEST(Process, CapturesStdoutAndStderrSeparately) {
  ProcessResult r = tool({"echo", "hello world"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "hello world");
  EXPECT_EQ(r.err, "err:hello world");
  EXPECT_EQ(r.dropped_bytes, 0u);
}

TEST(Process, NameIsLookedUpInPath) {
  ProcessResult r = run_process({"sh", "-c", "echo via-path; exit 5"}, quick());
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_EQ(r.out, "via-path\n");
}

TEST(Process, MissingExecutableDoesNotStart) {
  const std::string missing = "/nonexistent/kope-no-such-tool";
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = run_process({missing, "x"}, quick());
  EXPECT_LT(seconds_since(t0), 5.0);
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find(missing), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file"), std::string::npos) << r.error;
  EXPECT_EQ(r.describe().rfind("could not start: ", 0), 0u) << r.describe();
  EXPECT_NE(r.describe().find(missing), std::string::npos) << r.describe();
}

TEST(Process, MissingNameInPathDoesNotStart) {
  ProcessResult r = run_process({"kope-no-such-command-anywhere"}, quick());
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("kope-no-such-command-anywhere"), std::string::npos) << r.error;
}

TEST(Process, EmptyCommandDoesNotStart) {
  ProcessResult r = run_process({}, quick());
  EXPECT_FALSE(r.started);
  EXPECT_FALSE(r.error.empty());
}

TEST(Process, SegfaultIsReportedAsSignal) {
  ProcessResult r = tool({"segv"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, SIGSEGV);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.describe().find("SIGSEGV"), std::string::npos) << r.describe();
  EXPECT_NE(r.describe().find(std::to_string(SIGSEGV)), std::string::npos) << r.describe();
}

TEST(Process, AbortIsReportedAsSignal) {
  ProcessResult r = tool({"abort"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.term_signal, SIGABRT);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.describe().find("SIGABRT"), std::string::npos) << r.describe();
}

TEST(Process, SignalNames) {
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signal_name(SIGKILL), "SIGKILL");
  EXPECT_EQ(signal_name(SIGXCPU), "SIGXCPU");
  EXPECT_EQ(signal_name(SIGUSR1), "signal " + std::to_string(SIGUSR1));
}

TEST(Process, HangTimesOutNearTheWallLimit) {
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = tool({"hang"}, quick(0.5));
  const double took = seconds_since(t0);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_GE(took, 0.45);
  EXPECT_LT(took, 5.0);
  EXPECT_GE(r.wall_seconds, 0.45);
  EXPECT_LT(r.wall_seconds, 5.0);
  EXPECT_NE(r.describe().find("timed out"), std::string::npos) << r.describe();
}

TEST(Process, TimeoutKillsTheWholeProcessGroup) {
  TempDir tmp;
  const fs::path pidfile = tmp / "grandchild.pid";
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = tool({"fork-hang", pidfile.string()}, quick(1.0));
  EXPECT_LT(seconds_since(t0), 6.0);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_TRUE(r.timed_out);
  ASSERT_TRUE(fs::exists(pidfile)) << "the fake tool's child never wrote its pid; stderr: " << r.err;
  KillOnExit guard{read_pid(pidfile)};
  ASSERT_GT(guard.pid, 1);
  ASSERT_NE(guard.pid, getpid());
  EXPECT_TRUE(dies_within(guard.pid, 2.0)) << "grandchild " << guard.pid << " outlived the timeout";
}

TEST(Process, ParentExitReturnsPromptlyAndKillsStrayChildren) {
  TempDir tmp;
  const fs::path pidfile = tmp / "grandchild.pid";
  auto t0 = std::chrono::steady_clock::now();
  // The grandchild keeps stdout open: run_process must not wait for EOF, i.e. for the 30 s wall limit.
  ProcessResult r = tool({"fork-exit", pidfile.string()}, quick(30.0));
  const double took = seconds_since(t0);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_LT(took, 5.0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.term_signal, 0);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_TRUE(fs::exists(pidfile)) << "the fake tool's child never wrote its pid; stderr: " << r.err;
  KillOnExit guard{read_pid(pidfile)};
  ASSERT_GT(guard.pid, 1);
  ASSERT_NE(guard.pid, getpid());
  EXPECT_TRUE(dies_within(guard.pid, 2.0)) << "grandchild " << guard.pid << " outlived its parent's group";
}

TEST(Process, OutputBeyondTheCapIsDroppedAndCounted) {
  ProcessLimits l = quick();
  l.max_captured_bytes = 4096;
  ProcessResult r = tool({"spew", "200000"}, l);
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out.size(), 4096u);
  EXPECT_EQ(r.out.find_first_not_of('x'), std::string::npos);
  EXPECT_EQ(r.dropped_bytes, 200000u - 4096u);
  EXPECT_TRUE(r.err.empty());
}

TEST(Process, LargeOutputUnderTheCapIsKeptWhole) {
  // More than a pipe buffer, so the reader must keep draining while the child writes.
  ProcessResult r = tool({"spew", "300000"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out.size(), 300000u);
  EXPECT_EQ(r.out.find_first_not_of('x'), std::string::npos);
  EXPECT_EQ(r.dropped_bytes, 0u);
}

TEST(Process, AddressSpaceLimitStopsLargeAllocations) {
  ProcessLimits l = quick();
  l.address_space_bytes = uint64_t{256} << 20;
  ProcessResult big = tool({"alloc", "2048"}, l);
  ASSERT_TRUE(big.started) << big.error;
  EXPECT_FALSE(big.timed_out);
  EXPECT_FALSE(big.ok()) << "2 GiB allocated under a 256 MiB address-space limit";
  EXPECT_EQ(big.out.find("ok"), std::string::npos);

  ProcessResult small = tool({"alloc", "16"}, l);
  EXPECT_TRUE(small.ok()) << small.describe() << "\n" << small.err;
  EXPECT_EQ(small.out, "ok\n");
}

TEST(Process, WithoutALimitTheSameAllocationSucceeds) {
  // The control for the test above: the failure comes from the limit, not from the tool.
  ProcessResult r = tool({"alloc", "64"});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_EQ(r.out, "ok\n");
}

TEST(Process, CpuLimitEndsABusyLoop) {
  ProcessLimits l = quick(20.0);
  l.cpu_seconds = 1;
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = tool({"burn"}, l);
  const double took = seconds_since(t0);
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(r.term_signal == SIGXCPU || r.term_signal == SIGKILL) << r.describe();
  // The CPU limit ended it, not the 20 s wall limit (timed_out is false); no upper bound on the wall time, which a
  // loaded or sanitized machine stretches.
  EXPECT_GE(took, 0.5);
}

TEST(Process, CwdIsHonoured) {
  TempDir tmp;
  ProcessResult r = tool({"pwd"}, quick(), tmp.path());
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, fs::canonical(tmp.path()).string() + "\n");

  ProcessResult here = tool({"pwd"});
  ASSERT_TRUE(here.ok()) << here.describe();
  EXPECT_EQ(here.out, fs::current_path().string() + "\n");
}

TEST(Process, MissingCwdDoesNotStart) {
  TempDir tmp;
  ProcessResult r = tool({"pwd"}, quick(), tmp / "no-such-dir");
  EXPECT_FALSE(r.started);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.error.find("No such file"), std::string::npos) << r.error;
}

TEST(Process, EnvExtraIsVisibleToTheChild) {
  unsetenv("KOPE_FAKE_TOOL_VAR");
  ProcessResult unset = tool({"env", "KOPE_FAKE_TOOL_VAR"});
  ASSERT_TRUE(unset.ok()) << unset.describe();
  EXPECT_EQ(unset.out, "(unset)\n");

  ProcessResult r = tool({"env", "KOPE_FAKE_TOOL_VAR"}, quick(), {}, {"KOPE_FAKE_TOOL_VAR=from extra"});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "from extra\n");
}

TEST(Process, ParentEnvironmentIsInherited) {
  setenv("KOPE_FAKE_TOOL_INHERITED", "from parent", 1);
  ProcessResult r = tool({"env", "KOPE_FAKE_TOOL_INHERITED"});
  unsetenv("KOPE_FAKE_TOOL_INHERITED");
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "from parent\n");
}

TEST(Process, EnvExtraOverridesTheParentEnvironment) {
  setenv("KOPE_FAKE_TOOL_OVERRIDE", "outer", 1);
  ProcessResult r = tool({"env", "KOPE_FAKE_TOOL_OVERRIDE"}, quick(), {}, {"KOPE_FAKE_TOOL_OVERRIDE=inner"});
  unsetenv("KOPE_FAKE_TOOL_OVERRIDE");
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "inner\n");
}

}  // namespace

TEST(Process, InvalidUtf8InCapturedOutputIsEscapedOnce) {
  // One stray byte used to make every later JSON dump throw ("internal error", exit 3).
  ProcessResult r = run_process({"sh", "-c", "printf 'out \\377\\376 \\303\\251' && printf 'err \\200' >&2"}, ProcessLimits{});
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "out \\xFF\\xFE \xC3\xA9");  // valid UTF-8 (here an e-acute) is kept as it is
  EXPECT_EQ(r.err, "err \\x80");
}

}  // namespace kope
