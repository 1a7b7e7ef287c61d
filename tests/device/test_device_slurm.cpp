// Slurm as the executor (slurm:KIND), against a real one-node Slurm the test starts (tests/support/slurm_cluster.h):
// a shipped kernel judged through Slurm jobs, stop-now as scancel, a node lost mid-job as the cluster's failure
// (never the kernel's), sbatch's own words for options the cluster refuses, and the settings file.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/device/slurm.h"
#include "kope/eval/evaluator.h"
#include "kope/exec/paths.h"
#include "kope/model/suite.h"
#include "slurm_cluster.h"
#include "test_support.h"

using namespace kope;
using namespace kope::device;
using namespace kope::eval;
using namespace kope::exec;

namespace fs = std::filesystem;

namespace {

SlurmOptions quick_slurm(const test::OneNodeSlurm& cluster, const fs::path& dir) {
  SlurmOptions o;
  o.partition = cluster.partition();
  o.dir = dir;
  o.poll_seconds = 0.1;
  return o;
}

// A kernel that never returns by itself (its case timeout is far away): only a cancel or the cluster ends it.
std::string sleeping_kernel() {
  return test::affine_kernel("for (;;) { volatile int spin = 0; (void)spin; }");
}

EvalOptions slow_case_options() {
  EvalOptions eo = test::quick_options();
  eo.device = "slurm:cpu";
  eo.case_timeout_seconds = 120;
  eo.library = false;
  return eo;
}

// Runs `act` once the cluster shows a kope measurement job RUNNING (not the job that describes the node first);
// `acted` stays false when none ran within 60 s.
std::thread when_running(const test::OneNodeSlurm& cluster, std::function<void()> act, bool& acted) {
  return std::thread([&cluster, act = std::move(act), &acted] {
    for (int i = 0; i < 600 && !acted; ++i) {
      for (const std::string& line : cluster.queue())
        if (line.find("RUNNING kope-measure") != std::string::npos) {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the kernel is in its call by now
          act();
          acted = true;
          return;
        }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

}  // namespace

TEST(SlurmSettings, TheFileGivesTheOptionsAndABadFieldIsNamed) {
  test::TempDir tmp;
  test::write_text(tmp / "slurm.json", R"({"partition": "gpu", "gres": "gpu:1", "time": "00:10:00",
    "account": "lab", "sbatch_args": ["--qos=high"], "dir": "/shared/kope", "exclusive": false})");
  const SlurmOptions o = load_slurm_settings(tmp / "slurm.json");
  EXPECT_EQ(o.partition, "gpu");
  EXPECT_EQ(o.gres, "gpu:1");
  EXPECT_EQ(o.time, "00:10:00");
  EXPECT_EQ(o.account, "lab");
  EXPECT_EQ(o.sbatch_args, std::vector<std::string>{"--qos=high"});
  EXPECT_EQ(o.dir, "/shared/kope");
  EXPECT_FALSE(o.exclusive);
  EXPECT_EQ(load_slurm_settings(tmp / "absent.json").partition, "");  // no file: no settings

  test::write_text(tmp / "bad.json", R"({"partition": "gpu", "nodes": 4})");
  try {
    load_slurm_settings(tmp / "bad.json");
    ADD_FAILURE() << "an unknown field was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find((tmp / "bad.json").string() + "': /nodes: unknown field"), std::string::npos)
        << e.what();
  }
  test::write_text(tmp / "rel.json", R"({"dir": "relative/jobs"})");
  EXPECT_THROW(load_slurm_settings(tmp / "rel.json"), Error);
}

TEST(SlurmSettings, JobStatesAreReadAsSlurmPrintsThem) {
  const auto e = parse_scontrol_job("JobId=7 JobName=kope-measure JobState=NODE_FAIL Reason=NodeDown Dependency=(null) "
                                    "ExitCode=0:9 NodeList=vm");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->state, "NODE_FAIL");
  EXPECT_EQ(e->reason, "NodeDown");
  EXPECT_EQ(e->signal, 9);
  EXPECT_FALSE(e->agent_finished());
  EXPECT_FALSE(parse_scontrol_job("slurm_load_jobs error: Invalid job id specified"));
  for (const char* s : {"PENDING", "RUNNING", "COMPLETING", "REQUEUED"}) EXPECT_FALSE(slurm_state_final(s)) << s;
  for (const char* s : {"COMPLETED", "FAILED", "CANCELLED", "NODE_FAIL", "PREEMPTED", "TIMEOUT", "BOOT_FAIL"})
    EXPECT_TRUE(slurm_state_final(s)) << s;
  EXPECT_EQ(slurm_kind("slurm:cuda"), "cuda");
  EXPECT_FALSE(slurm_kind("cuda@slurm"));
  EXPECT_THROW(make_device("slurm:cpu@host"), Error);
}

TEST(SlurmDevice, AShippedCpuKernelIsJudgedThroughSlurmJobs) {
  test::OneNodeSlurm& cluster = test::OneNodeSlurm::shared();
  KOPE_REQUIRE_SLURM(cluster);
  test::TempDir tmp;
  set_slurm_options(quick_slurm(cluster, tmp / "shared"));
  const Suite suite = Suite::embedded();
  const Task& task = suite.require("exp");
  const std::string kernel = read_file(fs::path(KOPE_SOURCE_DIR) / "resources/kernels/exp/cpu/01_libmvec_expf.cpp", "kernel");
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  EvalOptions eo = test::quick_options();
  eo.device = "slurm:cpu";
  eo.cases = {"special", "n999"};
  const EvalReport rep = ev.evaluate(task, kernel, "01_libmvec_expf.cpp", eo);
  ASSERT_TRUE(rep.correct()) << rep.status() << (rep.errors.empty() ? "" : ": " + rep.errors[0]) << "\n" << cluster.logs();
  EXPECT_EQ(rep.device, "slurm:cpu");
  ASSERT_EQ(rep.cases.size(), 2u);
  for (const CaseResult& c : rep.cases) {
    EXPECT_TRUE(c.timed) << c.name;
    EXPECT_EQ(c.kernel_ns.size(), static_cast<std::size_t>(eo.reps)) << c.name;
    EXPECT_TRUE(c.speedup) << c.name;
  }
  // The node described itself from a job; the job folders are gone, the agent is in the shared folder once.
  EXPECT_EQ(rep.device_fingerprint.value("host", ""), cluster.node());
  EXPECT_NE(rep.device_fingerprint.dump().find("slurm_partition"), std::string::npos) << rep.device_fingerprint.dump();
  std::error_code ec;
  EXPECT_TRUE(fs::is_empty(tmp / "shared/jobs", ec)) << ec.message();
  EXPECT_TRUE(cluster.queue().empty());

  EvalOptions affine = test::quick_options();
  affine.device = "slurm:cpu";
  const EvalReport wrong = ev.evaluate(test::affine_task(),
                                       test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 3 * x[i];"), "w.cpp", affine);
  EXPECT_EQ(wrong.status(), "wrong");  // the kernel's own verdict still comes through
}

TEST(SlurmDevice, StopNowCancelsTheJobAndBlamesNothingOnTheKernel) {
  test::OneNodeSlurm& cluster = test::OneNodeSlurm::shared();
  KOPE_REQUIRE_SLURM(cluster);
  test::TempDir tmp;
  set_slurm_options(quick_slurm(cluster, tmp / "shared"));
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  EvalOptions eo = slow_case_options();
  eo.cancel = std::make_shared<CancelToken>();
  bool acted = false;
  std::thread stopper = when_running(cluster, [&] { eo.cancel->cancel(); }, acted);
  const auto start = std::chrono::steady_clock::now();
  const EvalReport rep = ev.evaluate(test::affine_task(), sleeping_kernel(), "sleeps.cpp", eo);
  stopper.join();
  ASSERT_TRUE(acted) << "no job ran:\n" << cluster.logs();
  EXPECT_TRUE(rep.cancelled) << rep.status();
  EXPECT_EQ(rep.status(), "cancelled");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 60.0);
  // scancel took the job out of the queue, and none of its processes is left on the node.
  for (int i = 0; i < 50 && !cluster.queue().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(cluster.queue().empty());
  std::vector<int> left = test::processes_mentioning({(tmp / "shared").string()});
  for (int i = 0; i < 50 && !left.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    left = test::processes_mentioning({(tmp / "shared").string()});
  }
  std::string which;
  for (int pid : left) which += " " + std::to_string(pid) + ": " + read_file("/proc/" + std::to_string(pid) + "/cmdline", "cmdline");
  EXPECT_TRUE(left.empty()) << which;
}

TEST(SlurmDevice, ANodeLostMidJobIsTheClustersFailureNeverTheKernels) {
  test::OneNodeSlurm& cluster = test::OneNodeSlurm::shared();
  KOPE_REQUIRE_SLURM(cluster);
  test::TempDir tmp;
  set_slurm_options(quick_slurm(cluster, tmp / "shared"));
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  EvalOptions eo = slow_case_options();
  bool acted = false;
  std::thread downer = when_running(cluster, [&] {
    cluster.command({"scontrol", "update", "nodename=" + cluster.node(), "state=down", "reason=kope-test"});
  }, acted);
  std::string error;
  try {
    const EvalReport rep = ev.evaluate(test::affine_task(), sleeping_kernel(), "sleeps.cpp", eo);
    ADD_FAILURE() << "a lost node gave a verdict on the kernel: " << rep.status();
  } catch (const InfraError& e) {  // this measurement lost, not the device (the loop goes on past it)
    error = e.what();
  }
  downer.join();
  ASSERT_TRUE(acted) << "no job ran:\n" << cluster.logs();
  EXPECT_NE(error.find("infrastructure failure: Slurm job"), std::string::npos) << error;
  EXPECT_NE(error.find("NODE_FAIL"), std::string::npos) << error;
  EXPECT_NE(error.find("not the kernel's"), std::string::npos) << error;
  // The node comes back (ReturnToService=2 once slurmd registers again) for the tests after this one.
  cluster.command({"scontrol", "update", "nodename=" + cluster.node(), "state=resume"});
  EXPECT_TRUE(cluster.wait_node("idle", 30)) << cluster.logs();
  EXPECT_TRUE(test::processes_mentioning({(tmp / "shared").string()}).empty());
}

TEST(SlurmDevice, OptionsTheClusterRefusesAreSaidInSbatchsWords) {
  test::OneNodeSlurm& cluster = test::OneNodeSlurm::shared();
  KOPE_REQUIRE_SLURM(cluster);
  test::TempDir tmp;
  SlurmOptions o = quick_slurm(cluster, tmp / "shared");
  o.partition = "no-such-partition";
  const Availability a = make_slurm_device("cpu", o, {})->availability();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("invalid partition specified: no-such-partition"), std::string::npos) << a.reason;
  o.partition = cluster.partition();
  o.gres = "gpu:1";  // the node has none
  const Availability g = make_slurm_device("cpu", o, {})->availability();
  EXPECT_FALSE(g.available);
  EXPECT_NE(g.reason.find("gres"), std::string::npos) << g.reason;
  o.gres.clear();
  const Availability ok = make_slurm_device("cpu", o, {})->availability();
  EXPECT_TRUE(ok.available) << ok.reason;
  DeviceConfig no_slurm;
  no_slurm.env = {"PATH=" + (tmp / "empty").string()};
  const Availability none = make_slurm_device("cpu", o, no_slurm)->availability();
  EXPECT_FALSE(none.available);
  EXPECT_NE(none.reason.find("sbatch"), std::string::npos) << none.reason;
}

// What a user types: `kope eval --executor slurm` with the flags over a settings file, and the errors of bad usage.
TEST(SlurmDevice, KopeEvalTakesTheExecutorFromFlagsAndTheSettingsFile) {
  test::OneNodeSlurm& cluster = test::OneNodeSlurm::shared();
  KOPE_REQUIRE_SLURM(cluster);
  test::TempDir tmp;
  test::write_text(tmp / "affine.json", test::affine_task_json());
  test::write_text(tmp / "k.cpp", test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"));
  test::write_text(tmp / "slurm.json", R"({"partition": "no-such-partition", "sbatch_args": ["--comment=kope-test"]})");
  ProcessLimits lim;
  lim.wall_seconds = 300;
  const std::vector<std::string> eval = {KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp",
                                         "--workspace", "ws", "--reps", "2", "--warmup", "0", "--json", "--executor",
                                         "slurm", "--slurm-settings", "slurm.json"};
  // The file's partition does not exist: sbatch says so, and nothing is judged (exit 4).
  ProcessResult r = run_process(eval, lim, tmp.path());
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("invalid partition specified: no-such-partition"), std::string::npos) << r.err;
  // The flag overrides it.
  std::vector<std::string> good = eval;
  for (const char* a : {"--slurm-partition", "debug", "--slurm-dir", "shared", "--slurm-arg=--nice=1"}) good.push_back(a);
  r = run_process(good, lim, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.value("device", ""), "slurm:cpu");
  EXPECT_EQ(j.value("status", ""), "passed") << r.out;
  EXPECT_TRUE(fs::is_directory(tmp / "shared/jobs"));  // --slurm-dir, relative to where kope ran
  // `kope run` takes the same options: the offline policy proposes exp's shipped cpu kernel, judged on the node.
  r = run_process({KOPE_CLI_BINARY, "run", "--tasks", "exp", "--max-attempts", "1", "--cases", "n999", "--reps", "2",
                   "--warmup", "0", "--workspace", "ws", "--json", "--executor", "slurm", "--slurm-partition", "debug",
                   "--slurm-dir", "shared"}, lim, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const nlohmann::json run = nlohmann::json::parse(r.out);
  ASSERT_EQ(run["tasks"].size(), 1u) << r.out;
  EXPECT_GT(run["tasks"][0].value("incumbent_speedup", 0.0), 0.0) << r.out;
  // Bad usage: a Slurm flag without the executor, an unknown executor, a remote device under Slurm.
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp", "--slurm-gres", "gpu:1"}, lim, tmp.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--slurm-gres applies to --executor slurm only"), std::string::npos) << r.err;
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp", "--executor", "pbs"}, lim, tmp.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--executor expects local or slurm, got \"pbs\""), std::string::npos) << r.err;
  r = run_process({KOPE_CLI_BINARY, "eval", "--task", "affine.json", "--kernel", "k.cpp", "--executor", "slurm",
                   "--device", "cpu@gpu-box"}, lim, tmp.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not cpu@gpu-box"), std::string::npos) << r.err;
}
