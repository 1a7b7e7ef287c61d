// `kope doctor`: the checks on this machine, on a bare or a hand-made /sys and /proc, the JSON form, and the
// command line (in-process and as the real binary).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/doctor/doctor.h"
#include "kope/base/error.h"
#include "kope/base/process.h"
#include "kope/exec/sandbox.h"
#include "test_support.h"

using namespace kope::exec;
using namespace kope::doctor;
using namespace kope::cli;

using namespace kope;
using nlohmann::json;

namespace {

const std::vector<std::string> kIds = {"compiler", "library-baseline", "user-namespaces", "bubblewrap", "seccomp",
                                       "cpu-clock", "cgroups", "caches", "timer", "governor", "turbo", "isolated-cores", "smt",
                                       "load", "devices"};

const DoctorCheck& check(const DoctorReport& r, const std::string& id) {
  const DoctorCheck* c = r.find(id);
  if (!c) throw std::runtime_error("no check " + id);
  return *c;
}

bool active(const Isolation& iso, const std::string& m) {
  return std::find(iso.active.begin(), iso.active.end(), m) != iso.active.end();
}

// Options without the device probes (the devices line has its own test), reading /sys and /proc under `root`.
DoctorOptions no_devices(const std::filesystem::path& root = "/", const std::string& cxx = "") {
  DoctorOptions o;
  o.root = root;
  o.cxx = cxx;
  o.devices = false;
  return o;
}

// The doctor's files under a test root (the checks read /sys and /proc below it).
void put(const test::TempDir& root, const std::string& abs, const std::string& text) {
  test::write_text(root / abs.substr(1), text);
}

}  // namespace

TEST(Doctor, EveryCheckRunsOnThisMachine) {
  const DoctorReport r = run_doctor();
  ASSERT_EQ(r.checks.size(), kIds.size());
  for (std::size_t i = 0; i < kIds.size(); ++i) {
    const DoctorCheck& c = r.checks[i];
    EXPECT_EQ(c.id, kIds[i]);
    EXPECT_FALSE(c.title.empty()) << c.id;
    EXPECT_FALSE(c.found.empty()) << c.id;
    EXPECT_TRUE(c.area == "build" || c.area == "sandbox" || c.area == "timing" || c.area == "devices") << c.area;
    if (c.verdict == Verdict::Warn || c.verdict == Verdict::Fail) {
      EXPECT_FALSE(c.todo.empty()) << c.id;
    }
    if (c.unknown) {
      EXPECT_EQ(c.found.rfind("unknown: ", 0), 0u) << c.id << ": " << c.found;
    }
  }
  // The tests build kernels here, so the compiler must be found and the doctor must say verdicts are possible.
  EXPECT_EQ(check(r, "compiler").verdict, Verdict::Ok) << check(r, "compiler").found;
  EXPECT_TRUE(r.verdicts_possible());
  EXPECT_FALSE(r.trustworthy_because.empty());
  // The cpu device is always there and times kernels.
  EXPECT_EQ(check(r, "devices").verdict, Verdict::Ok);
  EXPECT_NE(check(r, "devices").found.find("cpu: build, run, time"), std::string::npos) << check(r, "devices").found;
  // The timer: clock_getres and a measured step, both in the line.
  EXPECT_NE(check(r, "timer").found.find("clock_getres"), std::string::npos);
  EXPECT_NE(check(r, "timer").found.find("smallest step"), std::string::npos);
  // The summary has one entry per ok check with a phrase, one per weakening one.
  std::size_t ok = 0, weak = 0;
  for (const auto& c : r.checks) {
    if (c.because.empty()) continue;
    if (c.verdict == Verdict::Ok) ++ok;
    else if (c.verdict == Verdict::Warn || c.verdict == Verdict::Fail || c.unknown) ++weak;
  }
  EXPECT_EQ(r.trustworthy_because.size(), ok);
  EXPECT_EQ(r.weakened_because.size(), weak);
}

TEST(Doctor, SandboxLinesAgreeWithTheSandboxAndAreOkAsRootWithBubblewrap) {
  const DoctorReport r = run_doctor(no_devices());
  const Isolation iso = sandbox_capabilities();
  const bool wrapped = check(r, "bubblewrap").found.find("run in their own user, mount, pid") != std::string::npos;
  EXPECT_EQ(wrapped, active(iso, "mount-namespace")) << check(r, "bubblewrap").found;
  if (!wrapped) {
    EXPECT_EQ(check(r, "bubblewrap").verdict, Verdict::Warn);
  }
  EXPECT_EQ(check(r, "seccomp").verdict == Verdict::Ok, active(iso, "seccomp")) << check(r, "seccomp").found;
  const bool all_cgroups = active(iso, "cgroup-memory") && active(iso, "cgroup-pids") && active(iso, "cgroup-cpu");
  EXPECT_EQ(check(r, "cgroups").verdict == Verdict::Ok, all_cgroups) << check(r, "cgroups").found;
  for (const char* v : {"memory: ", "pids: ", "cpu: "}) EXPECT_NE(check(r, "cgroups").found.find(v), std::string::npos);
  if (std::getenv("KOPE_SANDBOX")) return;  // a degraded mode on purpose: the agreement above is what holds
  ASSERT_EQ(getuid(), 0u) << "the test command runs as root (README)";
  ASSERT_EQ(access("/usr/bin/bwrap", X_OK), 0) << "bubblewrap comes from scripts/install-deps.sh";
  for (const char* id : {"user-namespaces", "bubblewrap", "seccomp", "cpu-clock"})
    EXPECT_EQ(check(r, id).verdict, Verdict::Ok) << id << ": " << check(r, id).found;
  EXPECT_NE(check(r, "bubblewrap").found.find("bubblewrap 0."), std::string::npos) << check(r, "bubblewrap").found;
  EXPECT_NE(check(r, "user-namespaces").found.find("max_user_namespaces"), std::string::npos);
}

TEST(Doctor, MissingSysfsAndProcFilesAreUnknownNotErrors) {
  test::TempDir bare;  // no /sys, no /proc
  const DoctorReport r = run_doctor(no_devices(bare.path()));
  for (const char* id : {"caches", "governor", "turbo", "isolated-cores", "smt", "load"}) {
    const DoctorCheck& c = check(r, id);
    EXPECT_TRUE(c.unknown) << id;
    EXPECT_NE(c.verdict, Verdict::Fail) << id;
    EXPECT_EQ(c.found.rfind("unknown: ", 0), 0u) << id << ": " << c.found;
  }
  EXPECT_NE(check(r, "governor").found.find("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor is absent"),
            std::string::npos);
  EXPECT_NE(check(r, "timer").found.find("current_clocksource is absent"), std::string::npos);
  EXPECT_NE(check(r, "user-namespaces").found.find("max_user_namespaces is absent"), std::string::npos);
  // What could not be seen weakens the verdicts, and the summary says so.
  const std::string weakened = json(r.weakened_because).dump();
  EXPECT_NE(weakened.find("frequency policy is hidden"), std::string::npos) << weakened;
  EXPECT_NE(weakened.find("load is unknown"), std::string::npos) << weakened;
}

TEST(Doctor, ReadsWhatSysfsSaysAndSaysHowToFixIt) {
  test::TempDir root;
  put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
  put(root, "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
  put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
  put(root, "/sys/devices/system/cpu/smt/control", "on\n");
  put(root, "/sys/devices/system/cpu/smt/active", "1\n");
  put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,64\n");
  put(root, "/sys/devices/system/cpu/isolated", "\n");
  put(root, "/proc/loadavg", "99.00 50.00 10.00 12/300 4242\n");
  const std::vector<std::tuple<int, std::string, std::string, std::string>> caches = {
      {0, "1", "Data", "48K"}, {1, "1", "Instruction", "32K"}, {2, "2", "Unified", "1024K"}, {3, "3", "Unified", "32768K"}};
  for (const auto& [i, level, type, size] : caches) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i);
    put(root, dir + "/level", level + "\n");
    put(root, dir + "/type", type + "\n");
    put(root, dir + "/size", size + "\n");
  }
  DoctorReport r = run_doctor(no_devices(root.path()));
  EXPECT_EQ(check(r, "governor").verdict, Verdict::Warn);
  EXPECT_EQ(check(r, "governor").found, "performance on cpu 1; powersave on cpu 0");
  EXPECT_NE(check(r, "governor").todo.find("cpupower frequency-set -g performance"), std::string::npos);
  EXPECT_EQ(check(r, "turbo").verdict, Verdict::Warn);
  EXPECT_NE(check(r, "turbo").todo.find("echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo"), std::string::npos);
  EXPECT_EQ(check(r, "smt").verdict, Verdict::Warn);
  EXPECT_NE(check(r, "smt").found.find("thread siblings: 0,64"), std::string::npos);
  EXPECT_EQ(check(r, "isolated-cores").verdict, Verdict::Info);
  EXPECT_NE(check(r, "isolated-cores").found.find("no isolated cores"), std::string::npos);
  EXPECT_EQ(check(r, "load").verdict, Verdict::Warn);
  EXPECT_NE(check(r, "load").found.find("12 runnable of 300 tasks"), std::string::npos);
  EXPECT_FALSE(check(r, "caches").unknown);
  EXPECT_NE(check(r, "caches").found.find("L1d 48K, L1i 32K, L2 1024K, L3 32768K"), std::string::npos)
      << check(r, "caches").found;

  // All cores on performance, turbo off, SMT off, a quiet machine: those lines become ok.
  put(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
  put(root, "/sys/devices/system/cpu/intel_pstate/no_turbo", "1\n");
  put(root, "/sys/devices/system/cpu/smt/active", "0\n");
  put(root, "/proc/loadavg", "0.00 0.00 0.00 1/300 4242\n");
  r = run_doctor(no_devices(root.path()));
  for (const char* id : {"governor", "turbo", "smt", "load"})
    EXPECT_EQ(check(r, id).verdict, Verdict::Ok) << id << ": " << check(r, id).found;
  EXPECT_EQ(check(r, "governor").found, "performance on cpu 0-1");
}

TEST(Doctor, ReportRoundTripsThroughJson) {
  const DoctorReport r = run_doctor(no_devices());
  const json j = to_json(r);
  const DoctorReport back = doctor_report_from_json(json::parse(j.dump()));
  EXPECT_EQ(to_json(back), j);
  ASSERT_EQ(back.checks.size(), r.checks.size());
  EXPECT_EQ(back.checks[0].verdict, r.checks[0].verdict);
  EXPECT_EQ(back.weakened_because, r.weakened_because);
  json bad = j;
  bad["checks"][2]["verdict"] = "great";
  try {
    doctor_report_from_json(bad);
    FAIL() << "a bad verdict was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checks/2/verdict"), std::string::npos) << e.what();
  }
}

TEST(Doctor, NoCompilerMeansNoVerdicts) {
  const DoctorReport r = run_doctor(no_devices("/", "/nonexistent/c++"));
  const DoctorCheck& c = check(r, "compiler");
  EXPECT_EQ(c.verdict, Verdict::Fail);
  EXPECT_NE(c.found.find("/nonexistent/c++"), std::string::npos);
  EXPECT_FALSE(c.todo.empty());
  EXPECT_FALSE(r.verdicts_possible());
  EXPECT_TRUE(check(r, "library-baseline").unknown);
}

// The command line, in-process as the other CLI tests drive it.
TEST(DoctorCli, TextJsonAndUsage) {
  std::ostringstream out, err;
  ASSERT_EQ(run_cli({"doctor"}, out, err), kExitOk) << err.str();
  const std::string text = out.str();
  EXPECT_NE(text.find("verdicts on this machine are trustworthy because:"), std::string::npos) << text;
  EXPECT_NE(text.find("verdicts on this machine are weakened because:"), std::string::npos);
  EXPECT_NE(text.find("[ok]   C++ compiler"), std::string::npos) << text;

  std::ostringstream jout, jerr;
  ASSERT_EQ(run_cli({"doctor", "--json"}, jout, jerr), kExitOk) << jerr.str();
  const json j = json::parse(jout.str());
  std::set<std::string> ids;
  for (const auto& c : j.at("checks")) ids.insert(c.at("id").get<std::string>());
  for (const auto& id : kIds) EXPECT_TRUE(ids.count(id)) << id;
  EXPECT_TRUE(j.at("verdicts_possible").get<bool>());
  EXPECT_NO_THROW(doctor_report_from_json(j));

  std::ostringstream uout, uerr;
  run_cli({"--help"}, uout, uerr);
  EXPECT_NE((uout.str() + uerr.str()).find("doctor [--json]"), std::string::npos);
}

// The real binary: without a compiler it still reports, and exits 4 (environment failure).
TEST(DoctorCli, NoCompilerExitsFour) {
  ProcessLimits lim;
  lim.wall_seconds = 60;
  ProcessResult p = run_process({KOPE_CLI_BINARY, "doctor"}, lim, {}, {"CXX=/nonexistent/c++"});
  ASSERT_TRUE(p.started) << p.error;
  EXPECT_EQ(p.exit_code, kExitEnvironment) << p.out << p.err;
  EXPECT_NE(p.out.find("[fail] C++ compiler"), std::string::npos) << p.out;
  EXPECT_NE(p.err.find("cannot build kernels"), std::string::npos) << p.err;
  p = run_process({KOPE_CLI_BINARY, "doctor", "--json"}, lim, {}, {"CXX=/nonexistent/c++"});
  EXPECT_EQ(p.exit_code, kExitEnvironment);
  const json j = json::parse(p.out);
  EXPECT_FALSE(j.at("verdicts_possible").get<bool>());
}
