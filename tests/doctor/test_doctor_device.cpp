// `kope doctor --device`: the first-contact check on the local CPU, on the fake CANN (a board, no board, no
// toolkit, a route that fails), on CUDA here (nvcc builds; without a GPU the run says why), on cpu@127.0.0.1
// through a throwaway sshd, and its command line (text, --json, a bad --device, the exit status).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_cann.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "kope/base/process.h"
#include "kope/cli/cli.h"
#include "kope/doctor/device_check.h"
#include "sshd_harness.h"
#include "test_support.h"

using namespace kope;
using namespace kope::doctor;
using kope::test::FakeCann;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const DeviceStep& step(const DeviceCheckReport& r, const std::string& name, const std::string& route = "") {
  for (const auto& s : r.steps)
    if (s.step == name && s.route == route) return s;
  throw std::runtime_error("no step " + name + " " + route + " in the report");
}

// The step of that name whatever its route (the profile runs on the first route that built).
const DeviceStep& any_route(const DeviceCheckReport& r, const std::string& name) {
  for (const auto& s : r.steps)
    if (s.step == name) return s;
  throw std::runtime_error("no step " + name + " in the report");
}

std::string dump(const DeviceCheckReport& r) { return to_json(r).dump(2); }

DeviceCheckOptions options_in(const test::TempDir& tmp, const std::string& device, std::vector<std::string> env = {}) {
  DeviceCheckOptions o;
  o.device = device;
  o.paths = exec::EvalPaths::under(tmp / "ws");
  o.env = std::move(env);
  return o;
}

// y = x: the one task the fake bisheng's stub kernel (a copy of input 0) computes correctly on the fake board.
Task copy_task() {
  return parse_task_text(R"json({"name": "copy", "level": 1, "summary": "y = x",
    "inputs": [{"name": "x", "dtype": "fp32", "shape": ["N"]}], "outputs": [{"name": "y", "dtype": "fp32", "shape": ["N"]}],
    "reference": ["#include \"kope_kernel.h\"", "int kope_kernel(const kope_args* a) {",
                  "  for (int64_t i = 0; i < a->inputs[0].numel; ++i)",
                  "    ((kope_real*)a->outputs[0].data)[i] = ((const kope_real*)a->inputs[0].data)[i];",
                  "  return 0;", "}"],
    "cases": [{"name": "n4096", "dims": {"N": 4096}, "seed": 1}]})json", "test:copy.json");
}

const char* kCopyKernel =
    "#include \"kernel_operator.h\"\n#include \"kope_ascend.h\"\n"
    "extern \"C\" __global__ __aicore__ void copy_custom(GM_ADDR x, GM_ADDR y) {}\n"
    "extern \"C\" int kope_ascend_kernel(const kope_args* a, void* stream) {\n"
    "  copy_custom<<<8, nullptr, stream>>>((GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data);\n  return 0;\n}\n";

}  // namespace

TEST(DeviceDoctor, CpuBuildsRunsAndTimesTheShippedKernel) {
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(options_in(tmp, "cpu"));
  EXPECT_EQ(r.kind, "cpu");
  EXPECT_EQ(r.task, "exp");
  EXPECT_EQ(r.kernel.rfind("exp/01_", 0), 0u) << r.kernel;
  EXPECT_EQ(r.case_name, "n999");  // the smallest case with some work in it
  EXPECT_EQ(step(r, "availability").state, StepState::Works);
  EXPECT_EQ(step(r, "fingerprint").state, StepState::Info);
  EXPECT_EQ(step(r, "build", "shared-object").state, StepState::Works) << dump(r);
  EXPECT_EQ(step(r, "run", "shared-object").state, StepState::Works) << dump(r);
  const DeviceStep& t = step(r, "time", "shared-object");
  EXPECT_EQ(t.state, StepState::Works) << dump(r);
  EXPECT_NE(t.found.find("speedup"), std::string::npos) << t.found;
  EXPECT_NE(t.found.find("against the naive baseline"), std::string::npos) << t.found;
  const DeviceStep& p = step(r, "profile", "shared-object");
  EXPECT_EQ(p.state, StepState::NotAvailable);
  EXPECT_NE(p.found.find("no vendor profiler"), std::string::npos) << p.found;
  EXPECT_TRUE(r.can_build());
}

// The fake board (npu-smi shows a healthy 910B3): each route builds; the direct route runs on the "board", where
// the fake bisheng's stub copies its input, so exp comes back wrong, and the doctor says so with the evaluator's
// message; msOpGen builds but kope does not run operator packages; the CPU twin runs the real kernel correctly
// but has no clock; msprof op profiles the direct build.
TEST(DeviceDoctor, AscendOnTheFakeBoardTakesEveryRoute) {
  FakeCann cann;
  cann.install_twin();
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(options_in(tmp, "ascend", cann.config().env));
  EXPECT_EQ(r.kernel.rfind("exp/01_", 0), 0u) << r.kernel;
  EXPECT_EQ(step(r, "availability").state, StepState::Works) << dump(r);
  EXPECT_NE(step(r, "fingerprint").found.find("Ascend910B3"), std::string::npos) << step(r, "fingerprint").found;
  for (const char* route : {"direct", "msopgen", "cpu-twin"})
    EXPECT_EQ(step(r, "build", route).state, StepState::Works) << route << "\n" << dump(r);
  const DeviceStep& direct = step(r, "run", "direct");
  EXPECT_EQ(direct.state, StepState::Fails) << dump(r);
  EXPECT_NE(direct.found.find("wrong"), std::string::npos) << direct.found;
  EXPECT_NE(direct.todo.find("cpu-twin"), std::string::npos) << direct.todo;
  EXPECT_EQ(step(r, "time", "direct").state, StepState::NotAvailable);
  const DeviceStep& op = step(r, "run", "msopgen");
  EXPECT_EQ(op.state, StepState::NotAvailable) << dump(r);
  EXPECT_NE(op.found.find("msOpGen"), std::string::npos) << op.found;
  EXPECT_EQ(step(r, "run", "cpu-twin").state, StepState::Works) << dump(r);
  const DeviceStep& twin_time = step(r, "time", "cpu-twin");
  EXPECT_EQ(twin_time.state, StepState::NotAvailable);
  EXPECT_NE(twin_time.found.find("functional results only"), std::string::npos) << twin_time.found;
  const DeviceStep& prof = step(r, "profile", "direct");
  EXPECT_EQ(prof.state, StepState::Works) << dump(r);
  EXPECT_NE(prof.found.find("msprof op"), std::string::npos) << prof.found;
  EXPECT_NE(prof.found.find("Task Duration"), std::string::npos) << prof.found;
  EXPECT_TRUE(r.can_build());
}

// A kernel the stub computes correctly: the board run passes and msprof's times give a speedup; with no ascend
// baseline for the task the kernel is timed against itself, and the line says what that means. Without
// tools/tikicpulib the twin route is not available, with the reason.
TEST(DeviceDoctor, AscendTimesAgainstTheBaselineOnTheFakeBoard) {
  FakeCann cann;
  test::TempDir tmp;
  DeviceCheckOptions o = options_in(tmp, "ascend", cann.config().env);
  o.task_override = copy_task();
  o.kernel_source = kCopyKernel;
  o.kernel_name = "copy/doctor.cpp";
  const DeviceCheckReport r = check_device(o);
  EXPECT_EQ(step(r, "run", "direct").state, StepState::Works) << dump(r);
  const DeviceStep& t = step(r, "time", "direct");
  ASSERT_EQ(t.state, StepState::Works) << dump(r);
  EXPECT_NE(t.found.find("speedup 1.00x against itself"), std::string::npos) << t.found;
  const DeviceStep& twin = step(r, "build", "cpu-twin");
  EXPECT_EQ(twin.state, StepState::NotAvailable) << dump(r);
  EXPECT_NE(twin.found.find("tikicpulib"), std::string::npos) << twin.found;
  EXPECT_FALSE(twin.todo.empty());
}

// No board (npu-smi fails) and a bad --npu-arch: bisheng's own error is the direct route's line; the twin still
// builds and runs, so the device can build.
TEST(DeviceDoctor, AFailingRouteShowsTheToolsErrorAndNoBoardSaysWhy) {
  FakeCann cann;
  cann.install_twin();
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(
      options_in(tmp, "ascend", cann.config({"FAKE_NPU_SMI=fail", "KOPE_ASCEND_NPU_ARCH=dav-x"}).env));
  const DeviceStep& direct = step(r, "build", "direct");
  EXPECT_EQ(direct.state, StepState::Fails) << dump(r);
  EXPECT_NE(direct.found.find("invalid or missing --npu-arch 'dav-x'"), std::string::npos) << direct.found;
  EXPECT_NE(direct.todo.find("KOPE_ASCEND_NPU_ARCH"), std::string::npos) << direct.todo;
  EXPECT_EQ(step(r, "run", "cpu-twin").state, StepState::Works) << dump(r);
  const DeviceStep& prof = any_route(r, "profile");
  EXPECT_EQ(prof.state, StepState::NotAvailable) << dump(r);
  EXPECT_NE(prof.found.find("no NPU"), std::string::npos) << prof.found;
  EXPECT_TRUE(r.can_build());
}

TEST(DeviceDoctor, NoToolkitCannotBuildAndSaysWhatToInstall) {
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(options_in(
      tmp, "ascend", {"ASCEND_HOME_PATH=" + (tmp / "none").string(), "ASCEND_INSTALL_PATH=" + (tmp / "none").string(),
                      "HOME=" + tmp.path().string(), "PATH=/usr/bin:/bin"}));
  EXPECT_FALSE(r.available);
  EXPECT_FALSE(r.can_build());
  const DeviceStep& a = step(r, "availability");
  EXPECT_EQ(a.state, StepState::Fails);
  EXPECT_NE(a.todo.find("set_env.sh"), std::string::npos) << a.todo;
}

// nvcc builds the shipped CUDA kernel here; without a GPU the run step says why, in the worker's words.
TEST(DeviceDoctor, CudaBuildsWithNvccAndSaysWhyItCannotRun) {
  if (device::find_program("nvcc", {}, {"/usr/local/cuda/bin"}).empty())
    KOPE_SKIP_WITHOUT_HARDWARE("nvcc, of the CUDA toolkit, is not installed");
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(options_in(tmp, "cuda"));
  EXPECT_EQ(r.kernel.rfind("exp/01_", 0), 0u) << r.kernel;
  EXPECT_EQ(step(r, "build", "shared-object").state, StepState::Works) << dump(r);
  const bool gpu = r.capabilities.value("can_run", false);
  const DeviceStep& run = step(r, "run", "shared-object");
  if (gpu) {
    EXPECT_EQ(run.state, StepState::Works) << dump(r);
    return;
  }
  EXPECT_EQ(run.state, StepState::NotAvailable) << dump(r);
  EXPECT_NE(run.found.find("no GPU"), std::string::npos) << run.found;
  EXPECT_NE(run.todo.find("NVIDIA GPU"), std::string::npos) << run.todo;
  EXPECT_EQ(step(r, "profile", "shared-object").state, StepState::NotAvailable);
  EXPECT_TRUE(r.can_build());
}

TEST(DeviceDoctor, CpuOnARemoteHostThroughSsh) {
  test::Sshd sshd;
  ASSERT_TRUE(sshd.skip().empty()) << sshd.skip() << " (openssh-server comes from scripts/install-deps.sh)";
  test::ScopedEnv agent("KOPE_REMOTE_AGENT", KOPE_REMOTE_AGENT_PATH);
  test::TempDir tmp;
  DeviceCheckOptions o = options_in(tmp, "cpu@" + sshd.host(), {"KOPE_SSH_OPTIONS=" + sshd.options_line(),
                                                                "KOPE_REMOTE_ROOT=" + (sshd.tmp() / "remote-root").string()});
  o.paths.runner = exec::find_runner();
  const DeviceCheckReport r = check_device(o);
  EXPECT_EQ(r.name, "cpu@" + sshd.host());
  EXPECT_EQ(step(r, "availability").state, StepState::Works) << dump(r);
  EXPECT_EQ(step(r, "build", "shared-object").state, StepState::Works) << dump(r);
  EXPECT_EQ(step(r, "run", "shared-object").state, StepState::Works) << dump(r);
}

TEST(DeviceDoctor, ReportJsonHasEveryStep) {
  test::TempDir tmp;
  const DeviceCheckReport r = check_device(options_in(tmp, "cpu"));
  const json j = to_json(r);
  EXPECT_EQ(j.at("device"), "cpu");
  EXPECT_TRUE(j.at("can_build").get<bool>());
  ASSERT_EQ(j.at("steps").size(), r.steps.size());
  for (const auto& s : j.at("steps")) EXPECT_TRUE(step_state_from_name(s.at("state").get<std::string>())) << s;
}

// The real binary, pointed at the fake CANN through its environment as set_env.sh would: text, --json and exit 0;
// no toolkit: exit 4; a bad --device: exit 2 naming the value.
TEST(DeviceDoctorCli, TextJsonExitStatusAndBadDevice) {
  FakeCann cann;
  cann.install_twin();
  test::TempDir ws;
  ProcessLimits lim;
  lim.wall_seconds = 300;
  std::vector<std::string> env = cann.config().env;
  env.push_back("KOPE_WORKSPACE=" + (ws / "ws").string());
  ProcessResult p = run_process({KOPE_CLI_BINARY, "doctor", "--device", "ascend"}, lim, {}, env);
  EXPECT_EQ(p.exit_code, 0) << p.out << p.err;
  EXPECT_NE(p.out.find("kope doctor --device ascend: what this device gives kope, with exp/01_"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("[works]         build        direct"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("to do: "), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("summary\n  works:"), std::string::npos) << p.out;
  p = run_process({KOPE_CLI_BINARY, "doctor", "--device", "ascend", "--json"}, lim, {}, env);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(json::parse(p.out).at("can_build").get<bool>());

  p = run_process({KOPE_CLI_BINARY, "doctor", "--device", "ascend"}, lim, {},
                  {"ASCEND_HOME_PATH=" + (ws / "none").string(), "HOME=" + ws.path().string(), "PATH=/usr/bin:/bin",
                   "KOPE_WORKSPACE=" + (ws / "ws").string()});
  EXPECT_EQ(p.exit_code, cli::kExitEnvironment) << p.out << p.err;
  EXPECT_NE(p.err.find("no kernel can be built for ascend"), std::string::npos) << p.err;

  std::ostringstream out, err;
  EXPECT_EQ(cli::run_cli({"doctor", "--device", "tpu"}, out, err), cli::kExitBadInput);
  EXPECT_NE(err.str().find("--device tpu: unknown device \"tpu\""), std::string::npos) << err.str();
  std::ostringstream out2, err2;
  EXPECT_EQ(cli::run_cli({"doctor", "--device", "cuda@"}, out2, err2), cli::kExitBadInput);
  EXPECT_NE(err2.str().find("no host after '@'"), std::string::npos) << err2.str();
}

namespace {

// scripts/ascend-check.sh run as a user would, on the kope under test (no build, no tests), with `env` added.
ProcessResult run_ascend_check(const test::TempDir& tmp, const std::vector<std::string>& env) {
  fs::create_directories(tmp / "build/bin");
  fs::create_symlink(KOPE_CLI_BINARY, tmp / "build/bin/kope");
  std::vector<std::string> e = {"KOPE_ASCEND_CHECK_NO_BUILD=1"};
  e.insert(e.end(), env.begin(), env.end());
  ProcessLimits lim;
  lim.wall_seconds = 300;
  return run_process({"bash", std::string(KOPE_SOURCE_DIR) + "/scripts/ascend-check.sh", (tmp / "build").string(),
                      (tmp / "report.md").string()}, lim, {}, e);
}

// The report's status per contract id, from its table rows "| ID | what | status | evidence |".
std::map<std::string, std::string> statuses(const fs::path& report) {
  std::map<std::string, std::string> out;
  std::istringstream in(read_file(report));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| ", 0) != 0 || line.rfind("| contract", 0) == 0) continue;
    std::vector<std::string> cells;
    for (std::size_t a = 2, b; (b = line.find(" | ", a)) != std::string::npos; a = b + 3) cells.push_back(line.substr(a, b - a));
    if (cells.size() >= 3) out[cells[0]] = cells[2];
  }
  return out;
}

}  // namespace

// Here there is no board and no toolkit: the script runs, writes its report, and every contract is "not checked:
// no board". (On a host with npu-smi the statuses are the board's own.)
TEST(AscendCheckScript, WithoutABoardEveryContractIsNotChecked) {
  test::TempDir tmp;
  const ProcessResult p = run_ascend_check(
      tmp, {"PATH=/usr/bin:/bin", "HOME=" + tmp.path().string(), "ASCEND_HOME_PATH=", "ASCEND_INSTALL_PATH="});
  ASSERT_TRUE(p.started) << p.error;
  const auto st = statuses(tmp / "report.md");
  ASSERT_EQ(st.size(), 16u) << p.out << p.err;
  const bool board_here = fs::exists("/usr/local/sbin/npu-smi") || !device::find_program("npu-smi", {"PATH=/usr/bin:/bin"}).empty();
  for (const auto& [id, status] : st) {
    if (board_here) EXPECT_TRUE(status == "held" || status == "did not hold" || status.rfind("not checked: ", 0) == 0) << id;
    else EXPECT_EQ(status.rfind("not checked: no board", 0), 0u) << id << ": " << status;
  }
  if (!board_here) {
    EXPECT_EQ(p.exit_code, 0) << p.out << p.err;
    EXPECT_NE(p.out.find("board: **no board**"), std::string::npos) << p.out;
  }
}

// Against the fake CANN the probes decide: the toolkit's files, bisheng's error format and the fake board's table
// hold; the direct route's run does not (the fake bisheng's stub copies its input, so exp is wrong) and the script
// exits 1 for it. What held here held for the fakes only: it says the probes work, nothing about CANN.
TEST(AscendCheckScript, AgainstTheFakeCannTheProbesDecide) {
  FakeCann cann;
  cann.install_twin();
  test::TempDir tmp;
  const ProcessResult p = run_ascend_check(tmp, cann.config().env);
  ASSERT_TRUE(p.started) << p.error;
  const auto st = statuses(tmp / "report.md");
  ASSERT_EQ(st.size(), 16u) << p.out << p.err;
  for (const char* id : {"E1", "E2", "E3", "E5", "B1", "D1", "D3", "M1", "P2", "F1"})
    EXPECT_EQ(st.at(id), "held") << id << "\n" << p.out;
  EXPECT_EQ(st.at("D2"), "did not hold") << p.out;
  EXPECT_EQ(st.at("F2").rfind("not checked: ", 0), 0u) << st.at("F2");
  EXPECT_EQ(p.exit_code, 1) << p.out << p.err;
}
