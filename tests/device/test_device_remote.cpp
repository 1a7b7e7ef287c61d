// Remote hosts over a real sshd started by the test on 127.0.0.1 with throwaway keys: commands, checksummed
// copies, a detected corruption, one multiplexed TCP connection, and an end-to-end cpu@127.0.0.1 build and measure.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "kope/device/device.h"
#include "kope/device/remote.h"
#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/base/fsutil.h"
#include "kope/model/inputs.h"
#include "kope/base/process.h"
#include "sshd_harness.h"
#include "test_support.h"

using namespace kope::eval;

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using namespace kope::exec;

using kope::test::Sshd;
using kope::test::sshd_detail::free_port;

namespace {

// Established TCP connections from this machine to 127.0.0.1:port, read from /proc/net/tcp.
int established_to(int port) {
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);
  int n = 0;
  char want[16];
  std::snprintf(want, sizeof want, "0100007F:%04X", port);
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string sl, local, remote, st;
    ls >> sl >> local >> remote >> st;
    if (remote == want && st == "01") ++n;
  }
  return n;
}

SshOptions options_for(const Sshd& d) {
  SshOptions o;
  o.host = d.host();
  o.extra = d.client_options();
  return o;
}

}  // namespace

#define NEED_SSHD(d) \
  Sshd d;            \
  ASSERT_TRUE(d.skip().empty()) << d.skip() << " (openssh-server comes from scripts/install-deps.sh)"

TEST(Ssh, RunsACommand) {
  NEED_SSHD(sshd);
  SshSession s(options_for(sshd));
  ProcessResult r = s.run("echo hello; uname -s; exit 3");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "hello\nLinux\n");
  EXPECT_EQ(s.run("printf %s " + shell_quote("it's quoted; $HOME")).out, "it's quoted; $HOME");
}

TEST(Ssh, CopiesBothWaysWithChecksums) {
  NEED_SSHD(sshd);
  SshSession s(options_for(sshd));
  std::string data(1 << 20, '\0');
  std::mt19937 rng(7);
  for (auto& ch : data) ch = static_cast<char>(rng());
  test::write_text(sshd.tmp() / "local.bin", data);
  const std::string remote = (sshd.tmp() / "remote dir/copy.bin").string();
  ASSERT_TRUE(s.run("mkdir -p " + shell_quote((sshd.tmp() / "remote dir").string())).ok());
  s.put(sshd.tmp() / "local.bin", remote);
  EXPECT_EQ(s.remote_sha256(remote), file_sha256(sshd.tmp() / "local.bin"));
  s.get(remote, sshd.tmp() / "back.bin");
  EXPECT_EQ(read_file(sshd.tmp() / "back.bin"), data);
  EXPECT_EQ(s.remote_sha256(remote + ".absent"), "");
  EXPECT_THROW(s.get(remote + ".absent", sshd.tmp() / "none.bin"), Error);
}

TEST(Ssh, ACorruptedTransferIsDetected) {
  NEED_SSHD(sshd);
  SshSession s(options_for(sshd));
  test::write_text(sshd.tmp() / "payload.bin", std::string(4096, 'k'));
  s.put(sshd.tmp() / "payload.bin", (sshd.tmp() / "remote.bin").string());
  s.set_after_get_hook([](const fs::path& got) {  // one flipped byte between the wire and the check
    std::fstream f(got, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('X');
  });
  try {
    s.get((sshd.tmp() / "remote.bin").string(), sshd.tmp() / "received.bin");
    FAIL() << "a corrupted copy must not pass";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checksum mismatch"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(sshd.tmp() / "received.bin"));
}

TEST(Ssh, OneMasterConnectionCarriesEveryCommand) {
  NEED_SSHD(sshd);
  SshSession s(options_for(sshd));
  EXPECT_FALSE(s.master_alive());
  ASSERT_TRUE(s.run("true").ok());
  ASSERT_TRUE(s.master_alive());  // ssh -O check
  struct stat st{};
  ASSERT_EQ(stat(s.control_path().parent_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(s.run("echo " + std::to_string(i)).ok());
  EXPECT_EQ(established_to(sshd.port()), 1);  // twelve commands, one TCP connection
  s.close();
  EXPECT_FALSE(s.master_alive());
}

TEST(Ssh, BatchModeFailsFastWithoutAKey) {
  NEED_SSHD(sshd);
  SshOptions o;
  o.host = sshd.host();
  o.extra = {"-i", "/nonexistent_key", "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o",
             "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"};
  SshSession s(o);
  ProcessResult r = s.run("true", 20);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 255) << r.err;
}

static void cpu_at_127001(const Sshd& sshd);
TEST(RemoteDevice, CpuAt127001BuildsAndMeasuresRemotely) {
  NEED_SSHD(sshd);
  try {
    cpu_at_127001(sshd);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw: " << e.what();
  }
  unsetenv("KOPE_REMOTE_AGENT");
}

static void cpu_at_127001(const Sshd& sshd) {
  DeviceConfig c;
  c.work_dir = sshd.tmp() / "local-work";
  c.runner = find_runner();
  c.env = {"KOPE_SSH_OPTIONS=" + sshd.options_line(), "KOPE_REMOTE_ROOT=" + (sshd.tmp() / "remote-root").string()};
  setenv("KOPE_REMOTE_AGENT", KOPE_REMOTE_AGENT_PATH, 1);
  auto dev = make_device("cpu@" + sshd.host(), c);
  EXPECT_EQ(dev->name(), "cpu@" + sshd.host());
  Availability a = dev->availability();
  ASSERT_TRUE(a.available) << a.reason;
  EXPECT_EQ(a.reason.rfind("on " + sshd.host() + ": compiler", 0), 0u) << a.reason;
  EXPECT_FALSE(dev->fingerprint().model.empty());

  BuildOptions o;
  o.display_name = "affine.cpp";
  BuildResult bad = dev->build(test::affine_kernel("  y[0] = not_declared;"), o);
  ASSERT_FALSE(bad.ok);
  ASSERT_FALSE(bad.diagnostics.empty()) << bad.log;
  EXPECT_EQ(bad.diagnostics[0].file, "affine.cpp");
  EXPECT_EQ(bad.diagnostics[0].line, 9);
  BuildResult b = dev->build(test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), o);
  ASSERT_TRUE(b.ok) << b.error << "\n" << b.log;
  EXPECT_EQ(b.artifact.string().rfind((sshd.tmp() / "remote-root/work").string(), 0), 0u) << b.artifact;  // it lives there

  Task t = test::affine_task();
  ConcreteCase kc = resolve_case(t, t.cases[1]);
  MeasureRequest q;
  q.kcase = kc;
  std::string x(static_cast<std::size_t>(kc.inputs[0].numel) * 4, '\0');
  generate_tensor(kc.inputs[0], kc.seed, 0, x.data());
  q.inputs = {x};
  q.candidate = b.artifact;
  q.baseline = b.artifact;
  q.warmup = 1;
  q.reps = 3;
  q.flush_bytes = std::size_t{4} << 20;
  MeasureResult m = dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  ASSERT_EQ(m.first_outputs.size(), 1u);
  const float* xf = reinterpret_cast<const float*>(x.data());
  const float* y = reinterpret_cast<const float*>(m.first_outputs[0].data());
  for (int i = 0; i < 1001; ++i) ASSERT_FLOAT_EQ(y[i], 2 * xf[i] + 1) << i;
  EXPECT_EQ(m.candidate_ns.size(), 3u);
  EXPECT_NE(m.timer.find("on " + sshd.host()), std::string::npos) << m.timer;
  // Scratch folders on the host are removed after each operation; the agent is installed once by content.
  std::error_code ec;
  EXPECT_TRUE(fs::is_empty(sshd.tmp() / "remote-root/jobs", ec)) << ec.message();
  int agents = 0;
  for (const auto& e : fs::directory_iterator(sshd.tmp() / "remote-root"))
    agents += e.path().filename().string().rfind("bin-", 0) == 0;
  EXPECT_EQ(agents, 2);  // kope-remote and kope-runner, each under its sha256

  // A whole evaluation on cpu@HOST: built and measured there (kope-remote drives the judge's workers on the
  // host), the goldens and the checks here.
  setenv("KOPE_SSH_OPTIONS", sshd.options_line().c_str(), 1);
  setenv("KOPE_REMOTE_ROOT", (sshd.tmp() / "remote-root").c_str(), 1);
  Evaluator ev{EvalPaths::under(sshd.tmp() / "ws")};
  EvalOptions eo;
  eo.device = "cpu@" + sshd.host();
  eo.warmup = 1;
  eo.reps = 3;
  EvalReport rep = ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), "k.cpp", eo);
  EvalReport wrong = ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];"), "w.cpp", eo);
  unsetenv("KOPE_SSH_OPTIONS");
  unsetenv("KOPE_REMOTE_ROOT");
  ASSERT_TRUE(rep.correct()) << rep.status() << (rep.errors.empty() ? "" : ": " + rep.errors[0]);
  EXPECT_EQ(rep.device, "cpu@" + sshd.host());
  EXPECT_EQ(rep.cases.back().kernel_ns.size(), 3u);
  EXPECT_FALSE(rep.device_fingerprint.value("model", "").empty());
  EXPECT_EQ(wrong.status(), "wrong");
}

TEST(RemoteDevice, UnreachableHostIsAnAbsentDeviceWithTheReason) {
  DeviceConfig c;
  c.env = {"KOPE_SSH_OPTIONS=-o ConnectTimeout=3 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"};
  auto dev = make_device("cuda@127.0.0.1:" + std::to_string(free_port()), c);
  Availability a = dev->availability();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("ssh could not connect"), std::string::npos) << a.reason;
  BuildResult b = dev->build("x", BuildOptions{});
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.error.find("remote build on 127.0.0.1"), std::string::npos) << b.error;
}
