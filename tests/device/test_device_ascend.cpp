// The Ascend adapter against fake CANN tools (tests/device/fake_ascend) that reproduce the documented command lines and
// outputs, failures included. None of this has run on a real board.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <fstream>

#include "kope/device/ascend.h"
#include "kope/device/device.h"
#include "kope/base/error.h"
#include "kope/base/fsutil.h"
#include "fake_cann.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using namespace kope::device::ascend;
using kope::test::FakeCann;
using kope::test::kFakeAscendData;

namespace {

ConcreteCase vector_case(int64_t n) {
  ConcreteCase c;
  c.name = "n" + std::to_string(n);
  ConcreteTensor x{"x", DType::F32, {n}, n, {}, 0.0};
  ConcreteTensor y{"y", DType::F32, {n}, n, {}, 1e-4};
  c.inputs = {x};
  c.outputs = {y};
  return c;
}

std::string float_bytes(int64_t n) {
  std::string s(static_cast<std::size_t>(n) * 4, '\0');
  for (int64_t i = 0; i < n; ++i) {
    float v = static_cast<float>(i) * 0.5f - 3.0f;
    std::memcpy(&s[static_cast<std::size_t>(i) * 4], &v, 4);
  }
  return s;
}

const char* kKernel = R"(#include "kernel_operator.h"
#include "kope_ascend.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y) {
  // a real kernel would run its TPipe/TQue pipeline here
}
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  gelu_custom<<<8, nullptr, stream>>>((GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data);
  return 0;
}
)";

}  // namespace

TEST(AscendTools, VersionFilesAreParsed) {
  EXPECT_EQ(parse_version_cfg("# version: 1.0\ntoolkit_installed_version=[7.6.0.1.220:8.0.0]\n"), "8.0.0");
  EXPECT_EQ(parse_version_cfg("nothing here\n"), "");
  auto kv = parse_install_info("version=8.3.RC2\narch=aarch64\npath=/usr/local/Ascend/ascend-toolkit/8.3.RC2\n");
  EXPECT_EQ(kv["version"], "8.3.RC2");
  EXPECT_EQ(kv["arch"], "aarch64");
}

TEST(AscendTools, ToolkitIsFoundThroughAscendHomePathAndSetEnv) {
  FakeCann cann;
  Toolkit tk = find_toolkit(cann.config().env);
  ASSERT_TRUE(tk.found) << tk.reason;
  EXPECT_EQ(tk.version, "8.3.RC2");  // the install info wins over version.cfg
  EXPECT_EQ(tk.arch, "x86_64");
  EXPECT_EQ(tk.set_env, cann.root / "set_env.sh");
  EXPECT_EQ(fs::canonical(tk.home), fs::canonical(cann.latest));
  EXPECT_FALSE(tk.bisheng.empty());
  EXPECT_FALSE(tk.msprof.empty());
  EXPECT_FALSE(tk.msopgen.empty());
  EXPECT_EQ(tk.npu_smi, cann.sbin / "npu-smi");
  EXPECT_EQ(env_value(tk.env, "ASCEND_OPP_PATH").value_or(""), (fs::canonical(cann.latest) / "opp").string());
  EXPECT_NE(env_value(tk.env, "LD_LIBRARY_PATH").value_or("").find("/usr/local/Ascend/driver/lib64"), std::string::npos);
}

TEST(AscendTools, ToolkitIsFoundThroughInstallPathBeforeHomePath) {
  FakeCann cann;
  auto env = cann.config({"ASCEND_INSTALL_PATH=" + cann.latest.string(), "ASCEND_HOME_PATH=/nonexistent"}).env;
  Toolkit tk = find_toolkit(env);
  ASSERT_TRUE(tk.found) << tk.reason;
  EXPECT_NE(tk.reason.find("$ASCEND_INSTALL_PATH"), std::string::npos) << tk.reason;
}

TEST(AscendTools, AbsentToolkitSaysWhereItLooked) {
  test::TempDir tmp;
  Toolkit tk = find_toolkit({"ASCEND_HOME_PATH=" + (tmp / "none").string(), "ASCEND_INSTALL_PATH=",
                             "ASCEND_TOOLKIT_HOME=", "HOME=" + tmp.path().string()});
  EXPECT_FALSE(tk.found);
  EXPECT_NE(tk.reason.find("no CANN toolkit"), std::string::npos) << tk.reason;
  EXPECT_NE(tk.reason.find((tmp / "none").string()), std::string::npos) << tk.reason;
  EXPECT_NE(tk.reason.find("ASCEND_HOME_PATH"), std::string::npos) << tk.reason;
}

TEST(AscendTools, NpuSmiA2) {
  NpuSmiInfo s = parse_npu_smi_info(read_file(kFakeAscendData / "npu_smi_a2.txt"));
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.version, "25.2.0");
  ASSERT_EQ(s.chips.size(), 2u);
  EXPECT_EQ(s.chips[0].npu, 0);
  EXPECT_EQ(s.chips[0].chip, 0);
  EXPECT_EQ(s.chips[0].phy_id, -1);
  EXPECT_EQ(s.chips[0].name, "910B3");
  EXPECT_EQ(s.chips[0].health, "OK");
  EXPECT_DOUBLE_EQ(s.chips[0].power_w.value_or(0), 97.5);
  EXPECT_EQ(s.chips[0].temp_c.value_or(0), 41);
  EXPECT_EQ(s.chips[0].bus_id, "0000:C1:00.0");
  EXPECT_EQ(s.chips[0].hbm_used_mb, 3379u);
  EXPECT_EQ(s.chips[0].hbm_total_mb, 65536u);
  EXPECT_EQ(s.chips[1].npu, 1);
  EXPECT_EQ(s.idle_npus, (std::vector<int>{0, 1}));
  EXPECT_TRUE(s.processes.empty());
  EXPECT_EQ(soc_version_for(s.chips[0].name), "Ascend910B3");
  EXPECT_EQ(npu_arch_for("Ascend910B3"), "dav-2201");
  EXPECT_EQ(npu_arch_for("Ascend910_9391"), "dav-2201");
  EXPECT_EQ(npu_arch_for("Ascend950PR"), "dav-3510");
  EXPECT_EQ(npu_arch_for("Unknown"), "");
}

TEST(AscendTools, NpuSmiA3TwoChipsPerNpuWithPhyIds) {
  NpuSmiInfo s = parse_npu_smi_info(read_file(kFakeAscendData / "npu_smi_a3.txt"));
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.version, "25.3.rc1");
  ASSERT_EQ(s.chips.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(s.chips[i].npu, i / 2);
    EXPECT_EQ(s.chips[i].chip, i % 2);
    EXPECT_EQ(s.chips[i].phy_id, i);
    EXPECT_EQ(s.chips[i].name, "Ascend910");
  }
  EXPECT_FALSE(s.chips[1].power_w.has_value());  // "-" for the second chip
  EXPECT_EQ(s.chips[3].bus_id, "0000:9B:00.0");
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].pid, 632268);
  EXPECT_EQ(s.processes[0].name, "python3.1");
  EXPECT_EQ(s.processes[0].memory_mb, 197u);
  EXPECT_EQ(s.idle_npus, (std::vector<int>{1}));
}

TEST(AscendTools, NpuSmiSeventyDashVariant) {
  NpuSmiInfo s = parse_npu_smi_info(read_file(kFakeAscendData / "npu_smi_a3_70.txt"));
  ASSERT_TRUE(s.ok) << s.error;
  EXPECT_EQ(s.version, "26.0.rc2");
  ASSERT_EQ(s.chips.size(), 2u);
  EXPECT_EQ(s.chips[1].hbm_used_mb, 31877u);  // "31877/ 65536": no space before the slash
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].pid, 632268);
}

TEST(AscendTools, NpuSmiGarbageIsAClearError) {
  NpuSmiInfo g = parse_npu_smi_info(read_file(kFakeAscendData / "npu_smi_garbage.txt"));
  EXPECT_FALSE(g.ok);
  EXPECT_NE(g.error.find("could not parse npu-smi info"), std::string::npos) << g.error;
  EXPECT_NE(g.error.find("dcmi model initialized failed"), std::string::npos) << g.error;
  NpuSmiInfo r = parse_npu_smi_info(read_file(kFakeAscendData / "npu_smi_garbled_row.txt"));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("line 8"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("3379 65536"), std::string::npos) << r.error;
  EXPECT_FALSE(parse_npu_smi_info("").ok);
}

TEST(AscendTools, OpBasicInfoWithTrailingCommaAndNa) {
  auto rows = read_op_basic_info(kFakeAscendData / "OpBasicInfo.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].op_name, "topk_custom_0");
  EXPECT_EQ(rows[0].op_type, "vector");
  EXPECT_DOUBLE_EQ(rows[0].task_duration_us, 155.740005);
  EXPECT_EQ(rows[0].block_dim, 1);
  EXPECT_FALSE(rows[0].mix_block_dim.has_value());
  EXPECT_EQ(rows[0].device_id, 4);
  EXPECT_EQ(rows[0].pid, 1304945);
  EXPECT_DOUBLE_EQ(rows[0].rated_freq_mhz.value_or(0), 1800);
  // Newer spelling: Device ID, PID.
  test::TempDir tmp;
  test::write_text(tmp / "OpBasicInfo.csv", "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device ID,PID,Current Freq,Rated Freq,\n"
                                            "add_custom_0,mix,12.5,8,16,1,77,1650,1800,\n");
  rows = read_op_basic_info(tmp / "OpBasicInfo.csv");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].device_id, 1);
  EXPECT_EQ(rows[0].pid, 77);
  EXPECT_EQ(rows[0].mix_block_dim.value_or(0), 16);
  test::write_text(tmp / "Bad.csv", "Op Name,Op Type,Block Dim,\nx,vector,1,\n");
  EXPECT_THROW(read_op_basic_info(tmp / "Bad.csv"), Error);
}

TEST(AscendTools, NewestOpprofFolderAndPerLaunchSubfolders) {
  test::TempDir tmp;
  fs::create_directories(tmp / "OPPROF_20250101120000_ABCDEFGHIJKLMNOP");
  fs::create_directories(tmp / "OPPROF_20250101120500_QRSTUVWXYZABCDEF/device0/add_custom/0");
  fs::create_directories(tmp / "OPPROF_20250101120500_QRSTUVWXYZABCDEF/device0/add_custom/10");
  fs::create_directories(tmp / "OPPROF_20250101120500_QRSTUVWXYZABCDEF/device0/add_custom/2");
  fs::create_directories(tmp / "OPPROF_bad");
  for (const char* l : {"0", "10", "2"})
    test::write_text(tmp / ("OPPROF_20250101120500_QRSTUVWXYZABCDEF/device0/add_custom/" + std::string(l) + "/OpBasicInfo_20250101120500.csv"), "x\n");
  const fs::path newest = newest_opprof_dir(tmp.path());
  EXPECT_EQ(newest.filename(), "OPPROF_20250101120500_QRSTUVWXYZABCDEF");
  auto dirs = opprof_result_dirs(newest);
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(dirs[0].filename(), "0");
  EXPECT_EQ(dirs[1].filename(), "2");
  EXPECT_EQ(dirs[2].filename(), "10");
  EXPECT_TRUE(newest_opprof_dir(tmp / "OPPROF_bad").empty());
}

TEST(AscendTools, AclErrorsMapToOutcomes) {
  EXPECT_EQ(acl_error(507015)->outcome, Outcome::Crash);
  EXPECT_EQ(acl_error(507015)->name, "ACL_ERROR_RT_AICORE_EXCEPTION");
  EXPECT_EQ(acl_error(507035)->outcome, Outcome::Crash);
  EXPECT_EQ(acl_error(507014)->outcome, Outcome::Timeout);
  EXPECT_EQ(acl_error(507046)->outcome, Outcome::Timeout);
  EXPECT_EQ(acl_error(207001)->outcome, Outcome::OutOfMemory);
  EXPECT_FALSE(acl_error(1).has_value());
  EXPECT_EQ(find_acl_error_code("synchronize stream failed, runtime result = 507015[FUNC:x]").value_or(0), 507015);
  EXPECT_EQ(inner_error_message("noise\nEZ9999: Inner Error!\n  more\nafter\n"), "EZ9999: Inner Error!\nmore");
  EXPECT_EQ(kernel_entry_name(kKernel), "gelu_custom");
}

TEST(AscendDevice, AvailabilityAndFingerprintFromFakeTools) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config());
  Availability a = dev->availability();
  ASSERT_TRUE(a.available) << a.reason;
  EXPECT_NE(a.reason.find("CANN 8.3.RC2"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("2 usable NPU chip(s) (Ascend910B3)"), std::string::npos) << a.reason;
  Capabilities c = dev->capabilities();
  EXPECT_TRUE(c.can_build && c.can_run && c.can_time && c.profiler);
  EXPECT_EQ(c.build_modes, (std::vector<std::string>{"direct", "msopgen"}));
  Fingerprint f = dev->fingerprint();
  EXPECT_EQ(f.model, "Ascend910B3");
  EXPECT_EQ(f.count, 2);
  EXPECT_EQ(f.driver_version, "npu-smi 25.2.0");
  EXPECT_EQ(f.memory_bytes, uint64_t{65536} << 20);
  ConcreteCase vc = vector_case(1000);
  ASSERT_TRUE(dev->floor_ns(vc).has_value());
  EXPECT_NEAR(*dev->floor_ns(vc), 8000.0 / 1600.0, 1e-9);
}

TEST(AscendDevice, AlarmHealthIsReportedAndSkipped) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config({"FAKE_NPU_SMI=alarm"}));
  Availability a = dev->availability();
  EXPECT_NE(a.reason.find("NPU 0 chip 0 is Alarm"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("1 usable NPU chip(s)"), std::string::npos) << a.reason;
}

TEST(AscendDevice, NoBoardMeansBuildOnlyWithTheReason) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config({"FAKE_NPU_SMI=fail"}));
  Capabilities c = dev->capabilities();
  EXPECT_TRUE(c.can_build);
  EXPECT_FALSE(c.can_run);
  EXPECT_NE(dev->availability().reason.find("npu-smi info failed (exit 255)"), std::string::npos) << dev->availability().reason;
  MeasureRequest q;
  q.kcase = vector_case(4);
  q.inputs = {float_bytes(4)};
  MeasureResult m = dev->measure(q);
  EXPECT_EQ(m.outcome, Outcome::ToolError);
  EXPECT_NE(m.message.find("no NPU to run on"), std::string::npos) << m.message;
}

TEST(AscendDevice, Bisheng_ErrorsAreParsedWithTheUsersLines) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config());
  std::string bad = kKernel;
  bad.replace(bad.find("  // a real kernel"), 0, "  DataCopyy(x, y, 8);\n");  // line 5
  BuildOptions o;
  o.display_name = "my_gelu.cpp";
  BuildResult b = dev->build(bad, o);
  ASSERT_FALSE(b.ok);
  ASSERT_FALSE(b.diagnostics.empty()) << b.log;
  EXPECT_EQ(b.diagnostics[0].file, "my_gelu.cpp");
  EXPECT_EQ(b.diagnostics[0].line, 5);
  EXPECT_EQ(b.diagnostics[0].column, 3);
  EXPECT_EQ(b.diagnostics[0].severity, "error");
  EXPECT_NE(b.diagnostics[0].message.find("DataCopyy"), std::string::npos);
  EXPECT_NE(b.log.find("1 error generated."), std::string::npos) << b.log;
  EXPECT_NE(b.error.find("my_gelu.cpp:5:3"), std::string::npos) << b.error;
  // The documented command line.
  auto has = [&](const std::string& s) { return std::find(b.command.begin(), b.command.end(), s) != b.command.end(); };
  EXPECT_TRUE(has("-xcce") && has("-fPIC") && has("-shared") && has("--npu-arch=dav-2201") && has("-std=c++17")) << testing::PrintToString(b.command);
}

TEST(AscendDevice, MissingKernelEntryIsABuildError) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config());
  BuildResult b = dev->build("int main() {}\n", BuildOptions{});
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.error.find("__global__ __aicore__"), std::string::npos) << b.error;
}

class AscendMeasure : public ::testing::Test {
 protected:
  MeasureResult build_and_measure(const std::vector<std::string>& env, int reps = 4) {
    dev_ = make_device("ascend", cann_.config(env));
    BuildOptions o;
    o.display_name = "gelu.cpp";
    b_ = dev_->build(kKernel, o);
    EXPECT_TRUE(b_.ok) << b_.error << "\n" << b_.log;
    q_.kcase = vector_case(1000);
    q_.inputs = {float_bytes(1000)};
    q_.candidate = b_.artifact;
    q_.baseline = b_.artifact;
    q_.warmup = 2;
    q_.reps = reps;
    q_.scratch = cann_.tmp / "job";
    return dev_->measure(q_);
  }
  FakeCann cann_;
  std::unique_ptr<Device> dev_;
  BuildResult b_;
  MeasureRequest q_;
};

TEST_F(AscendMeasure, OutputsComeBackAndMsprofTimesEachLaunch) {
  MeasureResult m = build_and_measure({});
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  ASSERT_EQ(m.first_outputs.size(), 1u);
  EXPECT_EQ(m.first_outputs[0], q_.inputs[0]);  // the fake kernel copies x to y
  EXPECT_EQ(m.last_outputs[0], q_.inputs[0]);
  ASSERT_EQ(m.candidate_ns.size(), 4u);
  ASSERT_EQ(m.baseline_ns.size(), 4u);
  EXPECT_NEAR(m.candidate_ns[0], 155740.005, 1e-3);  // Task Duration(us) of launch 0, in ns
  EXPECT_NEAR(m.candidate_ns[3], 157240.005, 1e-3);  // launch 3: the fake adds 0.5 us per launch
  EXPECT_EQ(m.timer, "msprof op Task Duration");
}

// The worker and msprof around it run sandboxed by default: a file beside the toolkit, outside the job, is not
// there for them; KOPE_ASCEND_SANDBOX=0 (the opt-out) shows the same probe would see it.
TEST_F(AscendMeasure, TheWorkerRunsSandboxedByDefault) {
  const fs::path secret = cann_.tmp / "secret.txt";
  test::write_text(secret, "the workspace's secrets\n");
  MeasureResult m = build_and_measure({"FAKE_MSPROF_PROBE=" + secret.string()}, 1);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  EXPECT_NE(m.log.find("probe " + secret.string() + ": not readable"), std::string::npos) << m.log;
  test::ScopedEnv off("KOPE_ASCEND_SANDBOX", "0");
  MeasureResult open = build_and_measure({"FAKE_MSPROF_PROBE=" + secret.string()}, 1);
  ASSERT_EQ(open.outcome, Outcome::Ok) << open.message << "\n" << open.log;
  EXPECT_NE(open.log.find("probe " + secret.string() + ": readable"), std::string::npos) << open.log;
}

TEST_F(AscendMeasure, SingleLaunchFlatLayoutAndDeviceLevel) {
  MeasureResult m = build_and_measure({"FAKE_MSPROF_DEVICE_LEVEL=1"}, 1);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  ASSERT_EQ(m.candidate_ns.size(), 1u);
  EXPECT_NEAR(m.candidate_ns[0], 155740.005, 1e-3);
}

TEST_F(AscendMeasure, AicoreExceptionIsACrashWithTheInnerError) {
  MeasureResult m = build_and_measure({"FAKE_ACL_ERROR=507015"});
  EXPECT_EQ(m.outcome, Outcome::Crash) << m.message;
  EXPECT_NE(m.message.find("507015"), std::string::npos) << m.message;
  EXPECT_NE(m.message.find("ACL_ERROR_RT_AICORE_EXCEPTION"), std::string::npos) << m.message;
  EXPECT_NE(m.message.find("EZ9999"), std::string::npos) << m.message;
  EXPECT_NE(m.message.find("fftsplus aicore error"), std::string::npos) << m.message;
  EXPECT_EQ(m.failed_call, "the correctness run") << read_file_or_empty(q_.scratch / "result.json");
}

TEST_F(AscendMeasure, StreamSyncTimeoutAndDeviceOom) {
  EXPECT_EQ(build_and_measure({"FAKE_ACL_ERROR=507046"}).outcome, Outcome::Timeout);
  EXPECT_EQ(build_and_measure({"FAKE_ACL_OOM=1"}).outcome, Outcome::OutOfMemory);
}

TEST_F(AscendMeasure, MsprofMatchingNoKernelIsAToolError) {
  build_and_measure({});
  test::write_text(fs::path(b_.artifact.string() + ".entry"), "some_other_kernel\n");
  MeasureResult m = dev_->measure(q_);
  EXPECT_EQ(m.outcome, Outcome::ToolError);
  EXPECT_NE(m.message.find("timed no kernel named \"some_other_kernel\""), std::string::npos) << m.message;
  EXPECT_NE(m.message.find("No kernel matched"), std::string::npos) << m.message;
}

TEST_F(AscendMeasure, ProfileReadsTheCounterTables) {
  build_and_measure({});
  ProfileResult p = dev_->profile(q_);
  ASSERT_TRUE(p.available) << p.reason << "\n" << p.log;
  auto find = [&](const std::string& section, const std::string& name) -> const Counter* {
    for (const auto& c : p.counters)
      if (c.section == section && c.name == name) return &c;
    return nullptr;
  };
  ASSERT_NE(find("OpBasicInfo", "Task Duration"), nullptr);
  EXPECT_EQ(find("OpBasicInfo", "Task Duration")->unit, "us");
  ASSERT_NE(find("Memory", "[0] aiv_main_mem_read_bw"), nullptr);
  EXPECT_EQ(find("Memory", "[0] aiv_main_mem_read_bw")->unit, "GB/s");
  EXPECT_DOUBLE_EQ(find("Memory", "[0] aiv_main_mem_read_bw")->value, 101.2);
  ASSERT_NE(find("PipeUtilization", "[0] aiv_mte2_ratio"), nullptr);
  ASSERT_NE(find("ArithmeticUtilization", "[1] aiv_vec_ratio"), nullptr);
  EXPECT_TRUE(std::find(p.command.begin(), p.command.end(), "--kernel-name=gelu_custom") != p.command.end());
}

TEST(AscendDevice, MsOpGenProjectBuildsAndInstalls) {
  FakeCann cann;
  auto dev = make_device("ascend", cann.config());
  ConcreteCase sig = vector_case(16);
  BuildOptions o;
  o.mode = "msopgen";
  o.display_name = "gelu.cpp";
  o.signature = &sig;
  BuildResult b = dev->build(kKernel, o);
  ASSERT_TRUE(b.ok) << b.error << "\n" << b.log;
  EXPECT_EQ(b.artifact.filename(), "customize");
  EXPECT_TRUE(fs::exists(b.artifact / "op_api/lib/libcust_opapi.so"));
  const std::string op_json = read_file(b.artifact.parent_path().parent_path().parent_path() / "op.json");
  EXPECT_NE(op_json.find("\"op\": \"GeluCustom\""), std::string::npos) << op_json;
  EXPECT_NE(op_json.find("\"param_type\": \"required\""), std::string::npos) << op_json;
  // An error inside the project comes back through ascendc.cmake's wrapper with the user's line.
  std::string bad = kKernel;
  bad.replace(bad.find("  // a real kernel"), 0, "  DataCopyy(x, y, 8);\n");
  BuildResult e = dev->build(bad, o);
  ASSERT_FALSE(e.ok);
  EXPECT_NE(e.log.find("Command excution failed"), std::string::npos) << e.log;
  ASSERT_EQ(e.diagnostics.size(), 1u) << e.log;
  EXPECT_EQ(e.diagnostics[0].file, "gelu.cpp");
  EXPECT_EQ(e.diagnostics[0].line, 5);
}

TEST(AscendDevice, CpuTwinChecksFunctionallyWithoutABoard) {
  FakeCann cann;
  cann.install_twin();
  auto dev = make_device("ascend", cann.config({"FAKE_NPU_SMI=fail"}));
  Capabilities c = dev->capabilities();
  EXPECT_TRUE(c.can_run);    // on the CPU twin
  EXPECT_FALSE(c.can_time);  // but no board, so no times
  EXPECT_NE(std::find(c.build_modes.begin(), c.build_modes.end(), "cpu-twin"), c.build_modes.end());
  const std::string kernel = R"(#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
extern "C" __global__ __aicore__ void twice_custom(GM_ADDR x, GM_ADDR y, int64_t n) {
  const int64_t per = (n + 7) / 8, b = AscendC::GetBlockIdx();
  for (int64_t i = b * per; i < n && i < (b + 1) * per; ++i) ((float*)y)[i] = 2.0f * ((const float*)x)[i];
}
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(twice_custom, 8, (GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data, a->inputs[0].numel);
#else
  twice_custom<<<8, nullptr, stream>>>((GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data, a->inputs[0].numel);
#endif
  return 0;
}
)";
  BuildOptions o;
  o.mode = "cpu-twin";
  o.display_name = "twice.cpp";
  BuildResult b = dev->build(kernel, o);
  ASSERT_TRUE(b.ok) << b.error << "\n" << b.log;
  MeasureRequest q;
  q.kcase = vector_case(1001);
  q.inputs = {float_bytes(1001)};
  q.candidate = b.artifact;
  q.scratch = cann.tmp / "job";
  MeasureResult m = dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  const float* x = reinterpret_cast<const float*>(q.inputs[0].data());
  const float* y = reinterpret_cast<const float*>(m.first_outputs[0].data());
  for (int i = 0; i < 1001; ++i) ASSERT_FLOAT_EQ(y[i], 2 * x[i]) << i;
  EXPECT_TRUE(m.candidate_ns.empty());
  EXPECT_EQ(m.timer, "none (CPU twin: functional only)");
  // A twin kernel that faults is a crash, not a tool error.
  std::string bad = kernel;
  bad.replace(bad.find("((float*)y)[i] ="), 14, "((float*)nullptr)[i]");
  BuildResult bb = dev->build(bad, o);
  ASSERT_TRUE(bb.ok) << bb.error;
  q.candidate = bb.artifact;
  q.scratch = cann.tmp / "job2";
  EXPECT_EQ(dev->measure(q).outcome, Outcome::Crash);
}

// A pool's NPU index reaches the worker's aclrtSetDevice: the fake driver has NPUs 0 and 1 and refuses 7 with
// 107001, a failure of the device set-up (the pool retires such a device: kope/base/timing_slots.h).
TEST_F(AscendMeasure, APoolsDeviceIndexReachesTheWorker) {
  q_.device_index = 1;
  MeasureResult one = build_and_measure({}, 1);
  ASSERT_EQ(one.outcome, Outcome::Ok) << one.message << "\n" << one.log;
  q_.device_index = 7;
  MeasureResult seven = build_and_measure({}, 1);
  EXPECT_NE(seven.outcome, Outcome::Ok);
  EXPECT_NE((seven.message + seven.log).find("107001"), std::string::npos) << seven.message << "\n" << seven.log;
}
