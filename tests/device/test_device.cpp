// The device seam: registry and specs, the CPU device through the interface, per-device baselines and prompt
// templates, the worker contract's files, and `kope devices`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <nlohmann/json.hpp>

#include "kope/cli/cli.h"
#include "kope/device/device.h"
#include "kope/device/pool.h"
#include "kope/device/worker_protocol.h"
#include "kope/base/embedded.h"
#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/base/fsutil.h"
#include "kope/model/inputs.h"
#include "kope/exec/sandbox.h"
#include "kope/model/suite.h"
#include "fake_cann.h"
#include "scripted_llm_server.h"
#include "test_support.h"

using namespace kope::exec;
using namespace kope::eval;
using namespace kope::cli;

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using nlohmann::json;

namespace {

DeviceConfig cpu_config(const test::TempDir& tmp) {
  DeviceConfig c;
  c.work_dir = tmp / "work";
  c.runner = find_runner();
  return c;
}

MeasureRequest request_for(const ConcreteCase& c, const fs::path& cand, const fs::path& base, const fs::path& scratch) {
  MeasureRequest q;
  q.kcase = c;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::string bytes(static_cast<std::size_t>(c.inputs[i].numel) * dtype_size(c.inputs[i].dtype), '\0');
    generate_tensor(c.inputs[i], c.seed, i, bytes.data());
    q.inputs.push_back(bytes);
  }
  q.candidate = cand;
  q.baseline = base;
  q.scratch = scratch;
  q.warmup = 1;
  q.reps = 3;
  q.flush_bytes = std::size_t{4} << 20;
  q.timeout_seconds = 30;
  return q;
}

}  // namespace

TEST(DeviceRegistry, BuiltInKindsAndSpecs) {
  auto kinds = device_kinds();
  for (const char* k : {"cpu", "cuda", "ascend"})
    EXPECT_NE(std::find(kinds.begin(), kinds.end(), k), kinds.end()) << k;
  DeviceSpec s = parse_device_spec("cuda@alice@gpu-box.lan:2222");
  EXPECT_EQ(s.kind, "cuda");
  EXPECT_EQ(s.host, "alice@gpu-box.lan:2222");
  EXPECT_TRUE(parse_device_spec("cpu").host.empty());
  for (const char* bad : {"@host", "cuda@", "cuda@-oProxyCommand=x", "cuda@a b", "cuda@$(id)"})
    EXPECT_THROW(parse_device_spec(bad), Error) << bad;
  try {
    make_device("tpu");
    FAIL() << "an unknown kind must throw";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("devices: ascend, cpu, cuda"), std::string::npos) << e.what();
  }
  auto remote = make_device("cuda@gpu-box");
  EXPECT_EQ(remote->name(), "cuda@gpu-box");
  EXPECT_EQ(remote->kind(), "cuda");
}

TEST(DeviceRegistry, ACustomKindCanBeRegistered) {
  register_device("null", [](const DeviceConfig& c) { return make_device("cpu", c); });
  auto kinds = device_kinds();
  EXPECT_NE(std::find(kinds.begin(), kinds.end(), "null"), kinds.end());
  EXPECT_EQ(make_device("null")->kind(), "cpu");
}

TEST(CpuDevice, BuildMeasureAndFloorThroughTheInterface) {
  test::TempDir tmp;
  auto dev = make_device("cpu", cpu_config(tmp));
  ASSERT_TRUE(dev->availability().available) << dev->availability().reason;
  Capabilities caps = dev->capabilities();
  EXPECT_TRUE(caps.can_build && caps.can_run && caps.can_time);
  EXPECT_EQ(caps.header, "kope_kernel.h");
  Fingerprint f = dev->fingerprint();
  EXPECT_FALSE(f.model.empty());
  EXPECT_GT(f.count, 0);
  EXPECT_GT(f.memory_bytes, 0u);

  BuildOptions o;
  o.display_name = "affine.cpp";
  BuildResult cand = dev->build(test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), o);
  ASSERT_TRUE(cand.ok) << cand.error;
  BuildResult base = dev->build(test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = x[i] * 2.0f + 1.0f;"), o);
  ASSERT_TRUE(base.ok) << base.error;
  Task t = test::affine_task();
  ConcreteCase c = resolve_case(t, t.cases[1]);
  MeasureRequest q = request_for(c, cand.artifact, base.artifact, tmp / "job");
  MeasureResult m = dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  ASSERT_EQ(m.first_outputs.size(), 1u);
  ASSERT_EQ(m.first_outputs[0].size(), 1001u * 4);
  const float* x = reinterpret_cast<const float*>(q.inputs[0].data());
  const float* y = reinterpret_cast<const float*>(m.first_outputs[0].data());
  for (int i = 0; i < 1001; ++i) ASSERT_FLOAT_EQ(y[i], 2 * x[i] + 1) << i;  // the judge's bytes, the runner's output
  EXPECT_EQ(m.last_outputs[0], m.first_outputs[0]);
  EXPECT_EQ(m.candidate_ns.size(), 3u);
  EXPECT_EQ(m.baseline_ns.size(), 3u);
  EXPECT_EQ(m.order.size(), 6u);
  EXPECT_EQ(m.timer, "steady_clock");
  ASSERT_TRUE(dev->floor_ns(c).has_value());
  EXPECT_GT(*dev->floor_ns(c), 0.0);
}

TEST(CpuDevice, FailuresAreOutcomes) {
  test::TempDir tmp;
  auto dev = make_device("cpu", cpu_config(tmp));
  BuildOptions o;
  o.display_name = "broken.cpp";
  BuildResult bad = dev->build(test::affine_kernel("  y[0] = undefined_name;"), o);
  ASSERT_FALSE(bad.ok);
  ASSERT_FALSE(bad.diagnostics.empty());
  EXPECT_EQ(bad.diagnostics[0].file, "broken.cpp");
  EXPECT_EQ(bad.diagnostics[0].line, 9);
  BuildResult failing = dev->build(test::affine_kernel("  return 7;"), o);
  ASSERT_TRUE(failing.ok) << failing.error;
  BuildResult crashing = dev->build(test::affine_kernel("  *(volatile int*)0 = 1;"), o);
  ASSERT_TRUE(crashing.ok) << crashing.error;
  Task t = test::affine_task();
  ConcreteCase c = resolve_case(t, t.cases[0]);
  EXPECT_EQ(dev->measure(request_for(c, failing.artifact, failing.artifact, tmp / "j1")).outcome, Outcome::KernelError);
  EXPECT_EQ(dev->measure(request_for(c, crashing.artifact, failing.artifact, tmp / "j2")).outcome, Outcome::Crash);
  EXPECT_EQ(dev->measure(request_for(c, tmp / "missing.so", failing.artifact, tmp / "j3")).outcome, Outcome::LoadError);
}

TEST(TaskBaselines, PerDeviceBaselinesParseAndResolve) {
  json j = json::parse(test::affine_task_json());
  j["baselines"] = {{"cuda", {"#include \"kope_cuda.h\"", "// mine"}}};
  Task t = parse_task(j, "test:affine.json");
  ASSERT_EQ(t.baselines.count("cuda"), 1u);
  EXPECT_EQ(t.baselines["cuda"], "#include \"kope_cuda.h\"\n// mine\n");
  EXPECT_EQ(baseline_source(t, "cuda"), t.baselines["cuda"]);
  EXPECT_EQ(baseline_source(t, "ascend"), "");
  j["baselines"] = {{"cuda", 3}};
  try {
    parse_task(j, "test:affine.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/baselines/cuda"), std::string::npos) << e.what();
  }
  j["baselines"] = json::array();
  EXPECT_THROW(parse_task(j, "test:affine.json"), Error);
  // The shipped CUDA baselines: one per L1 task, found by task name.
  Suite suite = Suite::embedded();
  for (const char* name : {"exp", "foreach_addcdiv_scalar", "foreach_norm", "gelu", "masked_scale", "mish", "sigmoid", "swi_glu"}) {
    std::string src = baseline_source(resolve_task(name, suite), "cuda");
    EXPECT_NE(src.find("kope_cuda_kernel"), std::string::npos) << name;
  }
}

TEST(PromptTemplates, PerDeviceFolderWithOverride) {
  test::TempDir tmp;
  test::write_text(tmp / "cuda/system.md", "You write CUDA kernels.\n");
  test::write_text(tmp / "cuda/fix.md", "Fix it.\n");
  setenv("KOPE_PROMPTS_DIR", tmp.path().c_str(), 1);
  EXPECT_EQ(prompt_template("cuda", "system.md"), "You write CUDA kernels.\n");
  EXPECT_EQ(prompt_template("cuda", "../cuda/system.md"), "");
  EXPECT_EQ(prompt_template("ascend", "fix.md"), "");  // a name the device has nowhere
  // The folder's names and the embedded pack's (resources/prompts/cuda/), each once.
  auto names = prompt_template_names("cuda");
  EXPECT_EQ(std::count(names.begin(), names.end(), "fix.md"), 1);
  EXPECT_EQ(std::count(names.begin(), names.end(), "system.md"), 1);
  EXPECT_EQ(std::count(names.begin(), names.end(), "abi.md"), 1);
  unsetenv("KOPE_PROMPTS_DIR");
  EXPECT_EQ(prompt_template("cuda", "fix.md"), "");
  EXPECT_NE(prompt_template("cuda", "system.md").find("CUDA"), std::string::npos);  // the embedded one again
}

TEST(WorkerProtocol, JobFilesAndExitCodes) {
  test::TempDir tmp;
  Task t = test::affine_task();
  ConcreteCase c = resolve_case(t, t.cases[1]);
  c.attrs = {{"scale", 0.5}};
  MeasureRequest q = request_for(c, "/a/cand.so", "/a/base.so", tmp / "job");
  write_worker_job(tmp / "job", q, "/a/cand.so", "/a/base.so");
  const std::string txt = read_file(tmp / "job/job.txt");
  EXPECT_NE(txt.find("candidate /a/cand.so\n"), std::string::npos) << txt;
  EXPECT_NE(txt.find("input x 0 1001 1 1001\n"), std::string::npos) << txt;
  EXPECT_NE(txt.find("output y 0 1001 1 1001\n"), std::string::npos) << txt;
  EXPECT_NE(txt.find("attr scale 0.5\n"), std::string::npos) << txt;
  EXPECT_EQ(read_file(worker_input_path(tmp / "job", 0)), q.inputs[0]);
  q.inputs.clear();
  EXPECT_THROW(write_worker_job(tmp / "job2", q, "a", "b"), Error);

  EXPECT_EQ(outcome_for_worker_exit(kWorkerIllegalAddress), Outcome::IllegalAddress);
  EXPECT_EQ(outcome_for_worker_exit(kWorkerDeviceException), Outcome::Crash);
  EXPECT_EQ(outcome_for_worker_exit(kWorkerDeviceTimeout), Outcome::Timeout);
  EXPECT_EQ(outcome_for_worker_exit(99), Outcome::ToolError);
  ProcessResult pr;
  pr.started = true;
  pr.exit_code = kWorkerIllegalAddress;
  test::write_text(tmp / "job/result.json",
                   R"({"timer": "cudaEvent", "error": {"call": "a timed run", "code": 700, "name": "cudaErrorIllegalAddress", "message": "an illegal memory access was encountered"}})");
  MeasureResult m = read_worker_result(tmp / "job", pr, request_for(c, "a", "b", tmp / "job"));
  EXPECT_EQ(m.outcome, Outcome::IllegalAddress);
  EXPECT_EQ(m.failed_call, "a timed run");
  EXPECT_NE(m.message.find("cudaErrorIllegalAddress (700): an illegal memory access"), std::string::npos) << m.message;
}

// The library baseline's part of the contract (issue 18): a "library" line in job.txt (none without one), its
// correctness outputs in lib<k>.bin, its times in lib_ns, its own failure in library_error; all carried back by a
// remote host's measure.json.
TEST(WorkerProtocol, TheLibraryRidesBesideCandidateAndBaseline) {
  test::TempDir tmp;
  Task t = test::affine_task();
  ConcreteCase c = resolve_case(t, t.cases[0]);
  MeasureRequest q = request_for(c, "/a/cand.so", "/a/base.so", tmp / "job");
  write_worker_job(tmp / "job", q, "/a/cand.so", "/a/base.so");
  EXPECT_EQ(read_file(tmp / "job/job.txt").find("library"), std::string::npos) << "no library line without one";
  q.library = "/a/lib.so";
  write_worker_job(tmp / "job", q, "/a/cand.so", "/a/base.so");
  EXPECT_NE(read_file(tmp / "job/job.txt").find("library /a/lib.so\n"), std::string::npos);
  EXPECT_NE(read_file(tmp / "job/job.json").find("\"library\": \"/a/lib.so\""), std::string::npos);
  write_worker_job(tmp / "job", q, "/r/cand.so", "/r/base.so", std::string("/r/lib.so"));  // a remote run's paths
  EXPECT_NE(read_file(tmp / "job/job.txt").find("library /r/lib.so\n"), std::string::npos);

  const std::string bytes(static_cast<std::size_t>(c.outputs[0].numel) * 4, 'x');
  test::write_text(worker_first_path(tmp / "job", 0), bytes);
  test::write_text(worker_last_path(tmp / "job", 0), bytes);
  test::write_text(worker_library_path(tmp / "job", 0), std::string(bytes.size(), 'l'));
  test::write_text(tmp / "job/result.json", R"({"timer": "cudaEvent", "order": "cblbcl", "cand_ns": [1, 2], "base_ns": [3, 4], "lib_ns": [5, 6], "library_error": ""})");
  ProcessResult pr;
  pr.started = true;
  pr.exit_code = kWorkerOk;
  MeasureResult m = read_worker_result(tmp / "job", pr, q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message;
  EXPECT_EQ(m.library_ns, (std::vector<double>{5, 6}));
  ASSERT_EQ(m.library_outputs.size(), 1u);
  EXPECT_EQ(m.library_outputs[0], std::string(bytes.size(), 'l'));
  EXPECT_EQ(m.order.size(), 6u);

  write_measure_result(tmp / "back", m);
  MeasureResult r = read_measure_result(tmp / "back", q);
  EXPECT_EQ(r.library_ns, m.library_ns);
  EXPECT_EQ(r.library_outputs, m.library_outputs);

  // The library failed: its error, no times, no outputs; the candidate's result stands.
  fs::remove(worker_library_path(tmp / "job", 0));
  test::write_text(tmp / "job/result.json", R"({"order": "cc", "cand_ns": [1, 2], "library_error": "the library returned 161002 on the correctness run"})");
  m = read_worker_result(tmp / "job", pr, q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message;
  EXPECT_EQ(m.library_message, "the library returned 161002 on the correctness run");
  EXPECT_TRUE(m.library_outputs.empty());
  EXPECT_TRUE(m.library_ns.empty());
  EXPECT_EQ(m.candidate_ns.size(), 2u);
}

TEST(WorkerProtocol, MeasureResultRoundTrip) {
  test::TempDir tmp;
  Task t = test::affine_task();
  ConcreteCase c = resolve_case(t, t.cases[0]);
  MeasureResult m;
  m.first_outputs = {"abcd"};
  m.last_outputs = {"efgh"};
  m.candidate_ns = {1.5, 2.5};
  m.baseline_ns = {3, 4};
  m.order = {'b', 'c', 'c', 'b'};
  m.timer = "cudaEvent";
  m.findings = {"Invalid __global__ read"};
  write_measure_result(tmp.path(), m);
  MeasureResult r = read_measure_result(tmp.path(), request_for(c, "a", "b", tmp / "x"));
  EXPECT_EQ(r.outcome, Outcome::Ok);
  EXPECT_EQ(r.first_outputs, m.first_outputs);
  EXPECT_EQ(r.last_outputs, m.last_outputs);
  EXPECT_EQ(r.candidate_ns, m.candidate_ns);
  EXPECT_EQ(r.order, m.order);
  EXPECT_EQ(r.findings, m.findings);
  m.outcome = Outcome::IllegalAddress;
  m.first_outputs.clear();
  m.last_outputs.clear();
  write_measure_result(tmp.path(), m);
  EXPECT_EQ(read_measure_result(tmp.path(), request_for(c, "a", "b", tmp / "x")).outcome, Outcome::IllegalAddress);
}

TEST(CliDevices, ListsEveryKindWithItsReason) {
  std::ostringstream out, err;
  ASSERT_EQ(run_cli({"devices", "--json"}, out, err), kExitOk) << err.str();
  json j = json::parse(out.str());
  ASSERT_TRUE(j.is_array());
  std::map<std::string, json> by;
  for (const auto& d : j) by[d["name"].get<std::string>()] = d;
  ASSERT_TRUE(by.count("cpu") && by.count("cuda") && by.count("ascend")) << out.str();
  EXPECT_TRUE(by["cpu"]["available"].get<bool>());
  EXPECT_FALSE(by["ascend"]["reason"].get<std::string>().empty());
  EXPECT_TRUE(by["cpu"]["fingerprint"].contains("model"));
  std::ostringstream text, err2;
  ASSERT_EQ(run_cli({"devices"}, text, err2), kExitOk) << err2.str();
  EXPECT_NE(text.str().find("cpu"), std::string::npos);
  EXPECT_NE(text.str().find("ascend"), std::string::npos);
  std::ostringstream o3, e3;
  EXPECT_EQ(run_cli({"devices", "--device", "tpu"}, o3, e3), kExitBadInput);
  EXPECT_NE(e3.str().find("unknown device \"tpu\""), std::string::npos) << e3.str();
}

// SandboxSpec::dev_paths: a device node outside bubblewrap's minimal /dev is visible only when named.
TEST(SandboxDevPaths, ANamedDeviceNodeIsBoundAndNoOtherIs) {
  const Isolation iso = sandbox_capabilities();
  ASSERT_NE(std::find(iso.active.begin(), iso.active.end(), "mount-namespace"), iso.active.end())
      << "no private mount namespace here (bubblewrap, from install-deps.sh): " << iso.summary();
  std::string node;
  for (const char* n : {"/dev/kvm", "/dev/fuse", "/dev/loop-control", "/dev/kmsg"})
    if (fs::exists(n)) node = n;
  ASSERT_FALSE(node.empty()) << "none of /dev/kvm, /dev/fuse, /dev/loop-control, /dev/kmsg exists to try";
  test::TempDir tmp;
  SandboxSpec s;
  s.argv = {"/bin/sh", "-c", "test -e " + node};
  s.rw_paths = {tmp.path()};
  s.cwd = tmp.path();
  s.env = {"PATH=/usr/bin:/bin"};
  SandboxRun without = sandbox_run(s, 30);
  ASSERT_TRUE(without.started) << without.error;
  EXPECT_EQ(without.exit_code, 1) << node << " is visible without being named";
  s.dev_paths = {node};
  SandboxRun with = sandbox_run(s, 30);
  ASSERT_TRUE(with.started) << with.error;
  EXPECT_EQ(with.exit_code, 0) << node << " is not visible though named: " << with.err;
}

namespace {

// The CPU device under another name: the evaluator cannot take it for the local judge, so it goes the way every
// other device goes (Device::build, Device::measure, the checks against the golden here).
class Renamed : public Device {
 public:
  Renamed(std::unique_ptr<Device> d, std::string name, bool tool_error)
      : d_(std::move(d)), name_(std::move(name)), tool_error_(tool_error) {}
  std::string name() const override { return name_; }
  std::string kind() const override { return "cpu"; }
  Availability availability() override { return d_->availability(); }
  Capabilities capabilities() override { return d_->capabilities(); }
  Fingerprint fingerprint() override { return d_->fingerprint(); }
  BuildResult build(const std::string& s, const BuildOptions& o) override { return d_->build(s, o); }
  MeasureResult measure(const MeasureRequest& q) override {
    if (!tool_error_) return d_->measure(q);
    MeasureResult m;
    m.outcome = Outcome::ToolError;
    m.message = "the board went away";
    return m;
  }
  std::optional<double> floor_ns(const ConcreteCase& c) override { return d_->floor_ns(c); }

 private:
  std::unique_ptr<Device> d_;
  std::string name_;
  bool tool_error_;
};

}  // namespace

TEST(EvaluatorDevices, AnyDeviceGoesThroughBuildMeasureAndTheGoldenHere) {
  register_device("viacpu", [](const DeviceConfig& c) { return std::make_unique<Renamed>(make_device("cpu", c), "viacpu", false); });
  register_device("toolfail", [](const DeviceConfig& c) { return std::make_unique<Renamed>(make_device("cpu", c), "toolfail", true); });
  test::TempDir tmp;
  Evaluator ev{EvalPaths::under(tmp.path())};
  Task t = test::affine_task();
  EvalOptions o;
  o.device = "viacpu";
  o.warmup = 1;
  o.reps = 3;
  EvalReport rep = ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), "k.cpp", o);
  ASSERT_TRUE(rep.correct()) << rep.status() << (rep.errors.empty() ? "" : ": " + rep.errors[0]);
  EXPECT_EQ(rep.device, "viacpu");
  EXPECT_FALSE(rep.device_fingerprint.value("model", "").empty()) << rep.device_fingerprint.dump();
  EXPECT_TRUE(rep.to_json().contains("device_fingerprint"));
  for (const CaseResult& c : rep.cases) {
    EXPECT_EQ(c.kernel_ns.size(), 3u) << c.name;
    EXPECT_EQ(c.baseline_ns.size(), 3u) << c.name;
    EXPECT_TRUE(c.speedup.has_value()) << c.name;
    EXPECT_TRUE(c.hw_bound_ns.has_value()) << c.name;
    EXPECT_EQ(c.outputs.size(), 1u);
  }
  // Wrong answers, crashes and failing calls are outcomes, judged against the same fp64 golden.
  EvalReport wrong = ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1.5f;"), "w.cpp", o);
  EXPECT_EQ(wrong.status(), "wrong");
  EvalReport crash = ev.evaluate(t, test::affine_kernel("  *(volatile int*)0 = 1;"), "c.cpp", o);
  EXPECT_EQ(crash.status(), "crash");
  EvalReport failing = ev.evaluate(t, test::affine_kernel("  return 7;"), "f.cpp", o);
  EXPECT_EQ(failing.status(), "runtime_error");
  // The device's tooling failing is not the kernel's fault: an environment error, never "wrong".
  o.device = "toolfail";
  EXPECT_THROW(ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), "k.cpp", o),
               EnvError);
  // The local CPU keeps the judge, and records its name and fingerprint.
  o.device = "cpu";
  EvalReport local = ev.evaluate(t, test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"), "k.cpp", o);
  ASSERT_TRUE(local.correct()) << local.status();
  EXPECT_EQ(local.device, "cpu");
  EXPECT_FALSE(local.flush_method.empty());
  EXPECT_FALSE(local.device_fingerprint.is_null());
  o.device = "tpu";
  EXPECT_THROW(ev.evaluate(t, "x", "k.cpp", o), Error);
}

// kope eval/run --device: a malformed spec is bad usage (2); a device this environment lacks is exit 4, with why.
TEST(CliDevices, EvalAndRunTakeADeviceSpec) {
  test::TempDir tmp;
  test::write_text(tmp / "k.cpp", test::affine_kernel("for (int64_t i = 0; i < n; ++i) y[i] = 2 * x[i] + 1;"));
  const std::string ws = (tmp / "ws").string();
  std::ostringstream o1, e1;
  EXPECT_EQ(run_cli({"eval", "--task", "gelu", "--kernel", (tmp / "k.cpp").string(), "--device", "cuda@", "--workspace", ws}, o1, e1),
            kExitBadInput) << e1.str();
  // No CANN toolkit on this machine: the device is absent, and the reason names what is missing.
  unsetenv("ASCEND_HOME_PATH");
  unsetenv("ASCEND_INSTALL_PATH");
  std::ostringstream o2, e2;
  EXPECT_EQ(run_cli({"eval", "--task", "gelu", "--kernel", (tmp / "k.cpp").string(), "--device", "ascend", "--workspace", ws}, o2, e2),
            kExitEnvironment) << e2.str();
  EXPECT_NE(e2.str().find("device ascend is not available: "), std::string::npos) << e2.str();
  std::ostringstream o3, e3;
  EXPECT_EQ(run_cli({"run", "--tasks", "gelu", "--device", "ascend", "--workspace", ws}, o3, e3), kExitEnvironment) << e3.str();
}

// The whole loop on an accelerator: `kope run --policy llm --device ascend` against a scripted OpenAI-compatible
// server and the fake CANN tools, from the prompt (the Ascend pack, not the CPU's) to the recorded evaluation, on the
// shipped suite (its naive Ascend baseline is resources/baselines/ascend/gelu.cpp).
TEST(CliDevices, TheLlmAgentRunsOnAscendWithItsOwnPromptPack) {
  test::FakeCann cann;
  for (const std::string& kv : cann.config().env) {
    const auto eq = kv.find('=');
    setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
  }
  const auto shipped = embedded_candidates("gelu", "ascend");
  ASSERT_FALSE(shipped.empty());
  const std::string reply = "An AscendC kernel, pipelined.\n```cpp\n" + shipped[0].source + "```\n";
  test::ScriptedServer srv({test::sse_response({test::openai_stream({reply})})});
  const std::string ws = (cann.tmp / "ws").string();
  std::ostringstream out, err;
  const int rc = run_cli({"run", "--policy", "llm", "--provider", "openai", "--base-url", srv.url() + "/v1", "--model",
                          "m", "--tasks", "gelu", "--cases", "n1000", "--max-attempts", "1", "--device", "ascend",
                          "--workspace", ws, "--json"},
                         out, err);
  ASSERT_EQ(rc, kExitOk) << err.str() << out.str();
  ASSERT_EQ(srv.requests().size(), 1u);
  const std::string sent = srv.requests()[0].body;
  EXPECT_NE(sent.find("AscendC kernels for a Huawei Ascend NPU"), std::string::npos) << "the Ascend system prompt";
  EXPECT_NE(sent.find("kope_ascend_kernel"), std::string::npos) << "the Ascend ABI";
  // The documents sent are the Ascend pack's (each known by its title), never the CPU's.
  auto titles_sent = [&](const std::string& kind) {
    int n = 0;
    for (const EmbeddedFile& f : embedded_files()) {
      const std::string path(f.path), text(f.text);
      if (path.rfind("prompts/" + kind + "/docs/", 0) != 0) continue;
      const auto at = text.find("\n# ");
      if (at != std::string::npos && sent.find(text.substr(at + 1, text.find('\n', at + 1) - at - 1)) != std::string::npos) ++n;
    }
    return n;
  };
  EXPECT_GE(titles_sent("ascend"), 1) << "the Ascend documents";
  EXPECT_EQ(titles_sent("cpu"), 0) << "no CPU document";
  const json j = json::parse(out.str());
  ASSERT_EQ(j["tasks"].size(), 1u);
  ASSERT_EQ(j["tasks"][0]["attempts"].size(), 1u) << out.str();
  const json& a = j["tasks"][0]["attempts"][0];
  EXPECT_NE(a["status"], "no_candidate") << a.dump();
  EXPECT_GT(a["evaluation_id"].get<int64_t>(), 0) << a.dump();
  EXPECT_FALSE(a["transcript_id"].is_null()) << a.dump();
}

TEST(DevicePool, IndexesCoreSetsAndHostsAreParsedAndMixesRefused) {
  using kope::device::parse_device_pool;
  auto cpu = parse_device_pool("cpu");
  EXPECT_EQ(cpu.device, "cpu");
  EXPECT_TRUE(cpu.slots.empty());
  EXPECT_FALSE(cpu.is_pool());
  auto cores = parse_device_pool("cpu:0-1,cpu:2,3");
  EXPECT_EQ(cores.device, "cpu");
  ASSERT_EQ(cores.slots.size(), 2u);
  EXPECT_EQ(cores.slots[0].cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(cores.slots[1].cpus, (std::vector<int>{2, 3}));
  auto npus = parse_device_pool("ascend:0-7");
  EXPECT_EQ(npus.device, "ascend");
  ASSERT_EQ(npus.slots.size(), 8u);
  EXPECT_EQ(npus.slots[7].device_index, 7);
  EXPECT_EQ(npus.slots[7].name, "ascend:7");
  auto gpus = parse_device_pool("cuda:0,1");
  ASSERT_EQ(gpus.slots.size(), 2u);
  EXPECT_EQ(gpus.slots[1].device_index, 1);
  auto hosts = parse_device_pool("cuda@hostA,cuda@user@hostB:2222");
  EXPECT_EQ(hosts.device, "cuda");
  EXPECT_EQ(hosts.specs, (std::vector<std::string>{"cuda@hostA", "cuda@user@hostB:2222"}));
  for (const char* bad : {"cpu,cuda", "cuda:0,0", "cpu:0-1,cpu:1", "cuda:", "cuda@a,cuda:1", "cpu,,cpu", "cuda:x"})
    EXPECT_THROW(parse_device_pool(bad), kope::Error) << bad;
}
