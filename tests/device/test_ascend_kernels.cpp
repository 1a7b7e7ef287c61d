// The shipped AscendC reference kernels (resources/kernels/<task>/ascend/) through the Ascend device with the fake
// CANN tools: each builds by the direct route (bisheng) and by the CPU twin's, and on the twin, whose AscendC
// headers (tests/device/fake_ascend/tikicpulib) check the board's rules, each task's small cases go through the
// evaluator against the fp64 golden: every 01_ kernel is correct, every 02_ kernel is caught. The naive Ascend
// baselines (resources/baselines/ascend/<task>.cpp) are held to the same: each builds and is correct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>

#include "fake_cann.h"
#include "kope/device/device.h"
#include "kope/eval/evaluator.h"
#include "kope/eval/goldens.h"
#include "kope/model/check.h"
#include "kope/model/inputs.h"
#include "kope/model/suite.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace kope;
using namespace kope::device;
using namespace kope::exec;
using namespace kope::eval;
using kope::test::FakeCann;

namespace {

// The Ascend device with the CPU twin as its build route: candidates build as "cpu-twin" and run there. The
// task's baseline takes the direct route: the twin runs the candidate alone, so the baseline is built, never run.
class TwinAscend : public Device {
 public:
  explicit TwinAscend(std::unique_ptr<Device> d) : d_(std::move(d)) {}
  std::string name() const override { return "ascend-twin"; }
  std::string kind() const override { return "ascend"; }
  Availability availability() override { return d_->availability(); }
  Capabilities capabilities() override { return d_->capabilities(); }
  Fingerprint fingerprint() override { return d_->fingerprint(); }
  BuildResult build(const std::string& s, const BuildOptions& o) override {
    BuildOptions t = o;
    const bool baseline = o.display_name.find(".baseline") != std::string::npos;
    t.mode = baseline ? "direct" : "cpu-twin";
    return d_->build(s, t);
  }
  MeasureResult measure(const MeasureRequest& q) override { return d_->measure(q); }
  std::optional<double> floor_ns(const ConcreteCase& c) override { return d_->floor_ns(c); }

 private:
  std::unique_ptr<Device> d_;
};

// The tasks that do not ship Ascend kernels yet, and why: the test checks that each is still missing (a task that
// gains its kernels leaves this list) and that every other task of the 53 ships them.
const std::map<std::string, std::string> kNotYet = {};

// Every task of the suite (read from the source tree) that ships Ascend kernels.
const Suite& all_tasks() {
  static const Suite s = Suite::from_dir(fs::path(KOPE_SOURCE_DIR) / "resources/tasks");
  return s;
}
const std::vector<Task>& suite_tasks() {
  static const std::vector<Task> keep = [] {
    std::vector<Task> out;
    for (const Task& t : all_tasks().tasks())
      if (!kNotYet.count(t.name)) out.push_back(t);
    return out;
  }();
  return keep;
}

// The cases whose tensors hold at most this many elements in all (the special-value cases up to twice that):
// enough for tails, blocks and special values, small enough for the twin, which runs every block in turn.
constexpr int64_t kSmallElements = 140000;

int64_t elements(const Task& t, const Case& c) {
  const ConcreteCase cc = resolve_case(t, c);
  int64_t n = 0;
  for (const auto& v : {&cc.inputs, &cc.outputs})
    for (const ConcreteTensor& x : *v) n += x.numel;
  return n;
}

bool is_special(const Case& c) { return c.name.rfind("special", 0) == 0; }

// A case of `n` elements is small (a special-value case up to twice kSmallElements).
bool is_small(const Case& c, int64_t n) { return n <= (is_special(c) ? 2 : 1) * kSmallElements; }

// The task with a small variant of each dtype override its cases make (fp16, bf16, int32 indices...) that none of
// its small cases makes: the largest case of at most kSmallElements / 8 elements that is neither special nor
// overridden (so tails and several blocks, not a single element), with that case's dtypes, named
// "<case>_as_<overriding case>". The suite's cases in those dtypes are mostly large, so without these the twin would
// never run a kernel's fp16 or bf16 path.
Task with_dtype_variants(const Task& task) {
  Task t = task;
  const Case* plain = nullptr;
  int64_t plain_n = -1;
  std::vector<std::map<std::string, DType>> have;
  for (const Case& c : task.cases) {
    const int64_t n = elements(task, c);
    if (!is_small(c, n)) continue;
    have.push_back(c.dtypes);
    if (c.dtypes.empty() && !is_special(c) && n <= kSmallElements / 8 && n > plain_n)
      plain = &c, plain_n = n;
  }
  if (!plain) return t;
  for (const Case& c : task.cases) {
    if (c.dtypes.empty() || std::find(have.begin(), have.end(), c.dtypes) != have.end()) continue;
    Case v = *plain;
    v.name = plain->name + "_as_" + c.name;
    v.dtypes = c.dtypes;
    have.push_back(c.dtypes);
    t.cases.push_back(v);
  }
  return t;
}

std::vector<std::string> small_cases(const Task& t) {
  std::vector<std::string> out;
  for (const Case& c : t.cases)
    if (is_small(c, elements(t, c))) out.push_back(c.name);
  return out;
}

// KOPE_TWIN_TASKS=a,b runs the twin test on those tasks alone (when working on their kernels).
bool twin_task_wanted(const std::string& name) {
  const char* only = std::getenv("KOPE_TWIN_TASKS");
  if (!only || !*only) return true;
  return ("," + std::string(only) + ",").find("," + name + ",") != std::string::npos;
}

bool is_wrong_on_purpose(const CandidateSource& k) { return k.name.find("/02_") != std::string::npos; }

FakeCann& cann() {
  static FakeCann* c = [] {
    auto* f = new FakeCann;  // lives for the program: the registered device reads its configuration
    f->install_twin();
    return f;
  }();
  return *c;
}

}  // namespace

TEST(AscendKernels, EveryTaskShipsACorrectAndAWrongKernelWithTheirThoughts) {
  EXPECT_EQ(suite_tasks().size() + kNotYet.size(), all_tasks().tasks().size());
  for (const auto& [name, why] : kNotYet)
    EXPECT_TRUE(embedded_candidates(name, "ascend").empty()) << name << " ships Ascend kernels now: take it off kNotYet";
  for (const Task& t : suite_tasks()) {
    auto ks = embedded_candidates(t.name, "ascend");
    if (ks.size() < 2) {  // the others are still checked
      ADD_FAILURE() << t.name << " ships no 01/02 Ascend kernels";
      continue;
    }
    EXPECT_EQ(ks[0].name.substr(ks[0].name.find('/') + 1, 3), "01_") << ks[0].name;
    EXPECT_EQ(ks[1].name.substr(ks[1].name.find('/') + 1, 3), "02_") << ks[1].name;
    for (const auto& k : ks) {
      EXPECT_FALSE(k.thought.empty()) << k.name << ": no `// thought:` in its first lines";
      EXPECT_NE(k.source.find("extern \"C\" __global__ __aicore__"), std::string::npos) << k.name;
      EXPECT_NE(k.source.find("ICPU_RUN_KF"), std::string::npos) << k.name << ": no CPU-twin launch";
      if (is_wrong_on_purpose(k)) {
        EXPECT_NE(k.source.find("// flaw:"), std::string::npos) << k.name;
      }
    }
  }
}

TEST(AscendKernels, EveryTaskShipsANaiveBaselineThatBuildsByTheDirectRoute) {
  auto dev = make_device("ascend", cann().config());
  for (const Task& t : suite_tasks()) {
    const std::string src = baseline_source(t, "ascend");
    if (src.empty()) {
      ADD_FAILURE() << t.name << ": no resources/baselines/ascend/" << t.name << ".cpp";
      continue;
    }
    EXPECT_NE(src.find("MAX_CORES = 1;"), std::string::npos) << t.name << ": the naive baseline runs on one AI core";
    BuildOptions o;
    o.mode = "direct";
    o.display_name = t.name + ".baseline.cpp";
    BuildResult b = dev->build(src, o);
    EXPECT_TRUE(b.ok) << t.name << ": " << b.error << "\n" << b.log;
  }
}

TEST(AscendKernels, EveryShippedKernelBuildsByTheDirectRoute) {
  auto dev = make_device("ascend", cann().config());
  for (const Task& t : suite_tasks())
    for (const auto& k : embedded_candidates(t.name, "ascend")) {
      BuildOptions o;
      o.mode = "direct";
      o.display_name = k.name;
      BuildResult b = dev->build(k.source, o);
      EXPECT_TRUE(b.ok) << k.name << ": " << b.error << "\n" << b.log;
    }
}

// On the twin through the evaluator, four tasks at a time (each thread its own evaluator and workspace).
TEST(AscendKernels, OnTheCpuTwinEveryCorrectOnePassesAndEveryWrongOneIsCaught) {
  register_device("ascend-twin", [](const DeviceConfig&) {
    return std::make_unique<TwinAscend>(make_device("ascend", cann().config({"FAKE_NPU_SMI=fail"})));
  });
  std::vector<const Task*> tasks;
  for (const Task& t : suite_tasks())
    if (!embedded_candidates(t.name, "ascend").empty() && twin_task_wanted(t.name)) tasks.push_back(&t);
  ASSERT_FALSE(tasks.empty());
  std::mutex mu;
  std::vector<std::string> failures;
  auto check_task = [&](Evaluator& ev, const Task& task) {
    Task t = with_dtype_variants(task);
    auto ks = embedded_candidates(t.name, "ascend");
    // The shipped naive baseline is the task's baseline here, and is judged as a candidate too (it must be correct).
    const std::string naive = baseline_source(t, "ascend");
    if (naive.empty()) {
      std::lock_guard<std::mutex> l(mu);
      failures.push_back(t.name + ": no naive Ascend baseline ships (resources/baselines/ascend/" + t.name + ".cpp)");
      return;
    }
    ks.push_back(CandidateSource{"baselines/ascend/" + t.name + ".cpp", "", naive});
    EvalOptions o;
    o.device = "ascend-twin";
    o.cases = small_cases(t);
    o.library = false;
    o.warmup = 0;
    o.reps = 1;
    for (const auto& k : ks) {
      std::string why;
      try {
        EvalReport r = ev.evaluate(t, k.source, k.name, o);
        std::string detail = r.errors.empty() ? "" : r.errors.front();
        for (const CaseResult& c : r.cases)
          if (!c.correct()) {
            detail += c.name + ": " + c.message;
            break;
          }
        std::printf("%s: %s %s\n", k.name.c_str(), r.status().c_str(), detail.substr(0, 160).c_str());
        if (!is_wrong_on_purpose(k) && !r.correct()) why = "is " + r.status() + " (" + detail + ")";
        // Caught by the checks: a wrong answer, or the twin stopping it (an out-of-bounds access), not a build
        // failure or an error code, which would say nothing of its flaw.
        if (is_wrong_on_purpose(k) && r.status() != "wrong" && r.status() != "crash")
          why = "was not caught by the checks: " + r.status() + " " + detail;
      } catch (const std::exception& e) {
        why = std::string("threw: ") + e.what();
      }
      if (!why.empty()) {
        std::lock_guard<std::mutex> l(mu);
        failures.push_back(k.name + " " + why);
      }
    }
  };
  // The first task alone (it builds the twin's worker, which every later run shares), then the rest in lanes.
  test::TempDir tmp;
  {
    Evaluator ev{EvalPaths::under(tmp / "ws")};
    check_task(ev, *tasks.front());
  }
  std::size_t next = 1;
  auto lane = [&](int id) {
    Evaluator ev{EvalPaths::under(tmp / ("ws" + std::to_string(id)))};
    for (;;) {
      const Task* tp;
      {
        std::lock_guard<std::mutex> l(mu);
        if (next == tasks.size()) return;
        tp = tasks[next++];
      }
      check_task(ev, *tp);
    }
  };
  // Four lanes: much of a twin build is cmake and the compiler starting, which leaves cores idle.
  std::vector<std::thread> lanes;
  for (int id = 0; id < 4; ++id) lanes.emplace_back(lane, id);
  for (auto& t : lanes) t.join();
  for (const auto& f : failures) ADD_FAILURE() << f;
}

namespace {

// A one-block kernel `rule_custom(x, y)` over 64 fp32 elements in and out, xg and yg its GM tensors; `body` does the
// rest (its pipe, buffers and calls).
std::string twin_rule_kernel(const std::string& body) {
  return "#include \"kernel_operator.h\"\n#include \"kope_ascend.h\"\n#ifdef ASCENDC_CPU_DEBUG\n#include \"tikicpulib.h\"\n#endif\n"
         "using namespace AscendC;\nextern \"C\" __global__ __aicore__ void rule_custom(GM_ADDR x, GM_ADDR y) {\n"
         "  GlobalTensor<float> xg, yg;\n  xg.SetGlobalBuffer((__gm__ float*)x, 64);\n  yg.SetGlobalBuffer((__gm__ float*)y, 64);\n" +
         body + "\n}\n"
         "extern \"C\" int kope_ascend_kernel(const kope_args* a, void* stream) {\n#ifdef ASCENDC_CPU_DEBUG\n"
         "  ICPU_RUN_KF(rule_custom, 1, (GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data);\n#else\n"
         "  rule_custom<<<1, nullptr, stream>>>((GM_ADDR)a->inputs[0].data, (GM_ADDR)a->outputs[0].data);\n#endif\n"
         "  return 0;\n}\n";
}

// `source` built by the CPU twin's route (the build must succeed) and run once on `input` (64 fp32 values as bytes).
MeasureResult run_on_twin(Device& dev, const std::string& source, const std::string& scratch, const std::string& input) {
  BuildOptions o;
  o.mode = "cpu-twin";
  o.display_name = scratch + ".cpp";
  BuildResult b = dev.build(source, o);
  EXPECT_TRUE(b.ok) << b.error << "\n" << b.log;
  MeasureRequest q;
  q.kcase.name = "n64";
  q.kcase.inputs = {ConcreteTensor{"x", DType::F32, {64}, 64, {}, 0.0}};
  q.kcase.outputs = {ConcreteTensor{"y", DType::F32, {64}, 64, {}, 1e-4}};
  q.inputs = {input};
  q.candidate = b.artifact;
  q.scratch = cann().tmp / scratch;
  return dev.measure(q);
}

}  // namespace

// The twin's headers hold a kernel to the board's rules: an unaligned DataCopy, a UB overflow and a SyncAll whose
// workspace was not zeroed stop it with a message naming the call, reported as a crash, not as a wrong answer.
TEST(AscendKernels, TheTwinStopsUnalignedCopiesAndUbOverflow) {
  auto dev = make_device("ascend", cann().config({"FAKE_NPU_SMI=fail"}));
  const std::string copy = "  LocalTensor<float> t = q.AllocTensor<float>();\n  DataCopy(t, xg, COUNT);\n  DataCopy(yg, t, COUNT);\n  q.FreeTensor(t);";
  auto run = [&](const std::string& body, const std::string& scratch) {
    return run_on_twin(*dev, twin_rule_kernel("  TPipe pipe;\n  TQue<QuePosition::VECIN, 1> q;\n" + body), scratch,
                       std::string(64 * 4, '\0'));
  };
  auto with = [](std::string s, const std::string& count) { return s.replace(s.find("COUNT"), 5, count).replace(s.find("COUNT"), 5, count); };
  const std::string ub = "  pipe.InitBuffer(q, 1, 256);\n";
  EXPECT_EQ(run(ub + with(copy, "64"), "aligned").outcome, Outcome::Ok);
  MeasureResult odd = run(ub + with(copy, "60"), "unaligned");
  EXPECT_EQ(odd.outcome, Outcome::Crash);
  EXPECT_NE((odd.message + odd.log).find("not a multiple of 32"), std::string::npos) << odd.message << "\n" << odd.log;
  MeasureResult big = run("  pipe.InitBuffer(q, 2, 100 * 1024);\n" + with(copy, "64"), "overflow");
  EXPECT_EQ(big.outcome, Outcome::Crash);
  EXPECT_NE((big.message + big.log).find("Unified Buffer overflow"), std::string::npos) << big.message << "\n" << big.log;
  // SyncAll's gmWorkspace flags must be 0 before a launch's first SyncAll (here x's first int32 holds a stale 7).
  MeasureResult stale = run("  TBuf<QuePosition::VECCALC> b;\n  pipe.InitBuffer(b, 256);\n  GlobalTensor<int32_t> w;\n"
                            "  w.SetGlobalBuffer((__gm__ int32_t*)x, 64);\n  w.SetValue(0, 7);\n  SyncAll(w, b.Get<int32_t>());",
                            "stale_sync");
  EXPECT_EQ(stale.outcome, Outcome::Crash);
  EXPECT_NE((stale.message + stale.log).find("SyncAll: gmWorkspace slot of block 0 holds 7"), std::string::npos)
      << stale.message << "\n" << stale.log;
}

// bfloat16_t on the twin as on Atlas A2: Cast from float honours its rounding mode and back to float is exact; the
// vector unit's arithmetic does not take it, so a kernel that adds bf16 values does not build.
TEST(AscendKernels, TheTwinCastsBf16AsTheBoardDoesAndRefusesItInArithmetic) {
  auto dev = make_device("ascend", cann().config({"FAKE_NPU_SMI=fail"}));
  // x to bf16 under `mode`, `extra`, then back to float into y.
  auto kernel = [](const std::string& mode, const std::string& extra) {
    return twin_rule_kernel("  TPipe pipe;\n  TBuf<QuePosition::VECCALC> a, b;\n  pipe.InitBuffer(a, 256);\n  pipe.InitBuffer(b, 128);\n"
                            "  LocalTensor<float> f = a.Get<float>();\n  LocalTensor<bfloat16_t> h = b.Get<bfloat16_t>();\n"
                            "  DataCopy(f, xg, 64);\n  Cast(h, f, RoundMode::" + mode + ", 64);\n" + extra +
                            "  Cast(f, h, RoundMode::CAST_NONE, 64);\n  DataCopy(yg, f, 64);");
  };
  // 1 + 2^-8 and 1 + 3 * 2^-8 lie halfway between bf16 neighbours; -1 - 2^-9 a quarter step past -1; FLT_MAX
  // rounds past bf16's largest value (3.3895314e38) to infinity.
  const std::vector<float> x = {1.00390625f, 1.01171875f, -1.001953125f, FLT_MAX};
  std::string in(64 * 4, '\0');
  std::memcpy(in.data(), x.data(), x.size() * 4);
  auto run = [&](const std::string& mode) {
    MeasureResult m = run_on_twin(*dev, kernel(mode, ""), "bf16_" + mode, in);
    EXPECT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
    std::vector<float> y(4, -7.0f);
    if (!m.first_outputs.empty() && m.first_outputs[0].size() >= 16) std::memcpy(y.data(), m.first_outputs[0].data(), 16);
    return y;
  };
  EXPECT_EQ(run("CAST_RINT"), (std::vector<float>{1.0f, 1.015625f, -1.0f, INFINITY}));
  EXPECT_EQ(run("CAST_TRUNC"), (std::vector<float>{1.0f, 1.0078125f, -1.0f, 3.3895314e38f}));
  EXPECT_EQ(run("CAST_FLOOR"), (std::vector<float>{1.0f, 1.0078125f, -1.0078125f, 3.3895314e38f}));
  EXPECT_EQ(run("CAST_ROUND"), (std::vector<float>{1.0078125f, 1.015625f, -1.0f, INFINITY}));
  BuildOptions o;
  o.mode = "cpu-twin";
  o.display_name = "bf16_add.cpp";
  BuildResult add = dev->build(kernel("CAST_RINT", "  Add(h, h, h, 64);\n"), o);
  EXPECT_FALSE(add.ok);
  EXPECT_NE((add.error + add.log).find("takes bfloat16_t in Cast only"), std::string::npos) << add.error << "\n" << add.log;
}

// The library baselines (issue 18): on a fake board that computes (the fake bisheng builds kernels against the
// twin's headers, the fake libopapi runs the aclnn operators on the host, the fake msprof times both), a task's
// shipped kernel is timed against the aclnn operator, with the naive Ascend baseline as the second column.
namespace {
void register_fake_board() {
  static const bool once = [] {
    register_device("ascend-board", [](const DeviceConfig&) {
      return make_device("ascend", cann().config({"FAKE_BISHENG_TWIN=1"}));
    });
    return true;
  }();
  (void)once;
}
}  // namespace

TEST(AscendLibrary, ShippedKernelsAreTimedAgainstAclnnWithNaiveAsSecondColumn) {
  register_fake_board();
  test::TempDir tmp;
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  for (const std::string name : {"gelu", "exp", "softmax", "rms_norm", "moe_gating_top_k_softmax", "moe_finalize_routing",
                                 "weight_quant_batch_matmul", "foreach_addcdiv_scalar", "foreach_norm", "swi_glu",
                                 "gcd", "arg_max", "cummin", "gather", "group_norm", "scatter", "apply_rotary_pos_emb",
                                 "dynamic_quant", "cross_entropy_loss", "apply_adam_w",
                                 "grid_sampler_3d", "resize_bilinear", "transpose", "top_k", "adaptive_avg_pool_3d",
                                 "add_rms_norm_dynamic_quant", "conv_2d", "depthwise_conv_2d", "strided_slice",
                                 "quant_matmul", "grouped_matmul", "conv_3d_backprop_filter", "gru",
                                 "lstm", "mha", "gqa", "unique", "dequant_swiglu_quant"}) {
    const Task& t = *all_tasks().find(name);
    auto ks = embedded_candidates(t.name, "ascend");
    ASSERT_FALSE(ks.empty()) << name;
    EvalOptions o;
    o.device = "ascend-board";
    // Where the operator refuses a task's first small cases (they go to the naive baseline), the first it takes;
    // for scatter, a case with duplicate indices, and for resize_bilinear one that is no identity (their first
    // cases, 1x1x1 and 1x1 to 1x1, cannot tell a wrong index or coordinate rule); for the L3 and L4 tasks a small
    // case that a wrong rule would fail, not their first (often a single element).
    const std::map<std::string, std::string> taken = {{"apply_rotary_pos_emb", "b2_s33_n4_h32"},
                                                       {"dynamic_quant", "m3_k7_fp16"},
                                                       {"scatter", "a3_r10_j40_b1_dups"},
                                                       {"resize_bilinear", "n1_c3_5x7_to_9x11"},
                                                       {"transpose", "d2_3_5_7_mixed"},
                                                       {"top_k", "r7_n33_k33_full"},
                                                       {"adaptive_avg_pool_3d", "n1_c3_d5_h7_w9_to_2_3_4"},
                                                       {"add_rms_norm_dynamic_quant", "m8_d33"},
                                                       {"conv_2d", "n1_ci8_h15_w16_co12_k3x5_p2_d2_fp16"},
                                                       {"depthwise_conv_2d", "n1_c8_h15_w16_k3x5_p2_d2_fp16"},
                                                       {"strided_slice", "d2_9_10_12_positive"},
                                                       {"quant_matmul", "m9_k40_n17_fp16"},
                                                       {"grouped_matmul", "g3_c5_k7_n9"},
                                                       {"conv_3d_backprop_filter", "n2_ci4_d7_h9_w8_co5_k3_s2_p1"},
                                                       {"gru", "t5_b3_i7_h9"},
                                                       {"lstm", "t5_b3_i7_h9"},
                                                       {"mha", "b2_h3_s33_d17_causal"},
                                                       {"gqa", "b1_hkv2_g3_s5_l11_d7"},
                                                       {"unique", "n1000_i64_dups"},
                                                       {"dequant_swiglu_quant", "m3_h7_right"}};
    o.cases = {taken.count(name) ? taken.at(name) : small_cases(t).front()};
    o.warmup = 1;
    o.reps = 3;
    EvalReport r = ev.evaluate(t, ks.front().source, ks.front().name, o);
    ASSERT_TRUE(r.correct()) << name << ": " << r.status() << " " << (r.errors.empty() ? "" : r.errors.front());
    for (const std::string& w : r.warnings) EXPECT_EQ(w.find("library"), std::string::npos) << name << ": " << w;
    for (const CaseResult& c : r.cases) {
      EXPECT_EQ(c.baseline, "library") << name << "/" << c.name << ": " << c.library_message;
      EXPECT_TRUE(c.library_ran) << name << "/" << c.name;
      EXPECT_EQ(c.library_correct, std::optional<bool>(true)) << name << "/" << c.name << ": " << c.library_message;
      EXPECT_EQ(c.library_ns.size(), 3u) << name << "/" << c.name;
      EXPECT_EQ(c.baseline_ns.size(), 3u) << name << "/" << c.name;
      EXPECT_TRUE(c.speedup.has_value()) << name << "/" << c.name;
      EXPECT_TRUE(c.speedup_vs_naive.has_value()) << name << "/" << c.name;
    }
  }
}

namespace {
// The task's shipped Ascend kernel on the fake board over two cases: `refused`, which the library refuses (`code`,
// 161002 unless said) and is timed against the naive baseline, and `taken`, which runs the operator and matches the
// golden.
void expect_refused_and_taken(const std::string& task, const std::string& refused, const std::string& taken,
                              const std::string& code = "161002") {
  register_fake_board();
  test::TempDir tmp;
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  const Task& t = *all_tasks().find(task);
  auto ks = embedded_candidates(t.name, "ascend");
  ASSERT_FALSE(ks.empty());
  EvalOptions o;
  o.device = "ascend-board";
  o.cases = {refused, taken};
  o.warmup = 0;
  o.reps = 2;
  EvalReport r = ev.evaluate(t, ks.front().source, ks.front().name, o);
  ASSERT_TRUE(r.correct()) << r.status() << " " << (r.errors.empty() ? "" : r.errors.front());
  ASSERT_EQ(r.cases.size(), 2u);
  for (const CaseResult& c : r.cases) {
    if (c.name == refused) {
      EXPECT_EQ(c.baseline, "naive") << c.library_message;
      EXPECT_NE(c.library_message.find("the library returned " + code), std::string::npos) << c.library_message;
      EXPECT_TRUE(c.library_ns.empty());
    } else {
      EXPECT_EQ(c.baseline, "library") << c.name << ": " << c.library_message;
      EXPECT_EQ(c.library_correct, std::optional<bool>(true)) << c.name << ": " << c.library_message;
    }
  }
}
}  // namespace

// aclnnForeachNorm's Atlas A2/A3 kernel computes only ord 1 and 2 (any other p gives the 2-norm): the baseline
// refuses ord 3, so that case is timed against the naive baseline, while an ord 1 case still runs the operator.
TEST(AscendLibrary, ForeachNormLeavesOrdersOtherThanOneAndTwoToTheNaiveBaseline) {
  expect_refused_and_taken("foreach_norm", "special_zero", "l3_n1000_ord1");
}

// aclnnDynamicQuant takes x in FLOAT16 and BFLOAT16 only: its first phase refuses the task's fp32 cases (161002),
// which are then timed against the naive baseline, while an fp16 case runs the operator.
TEST(AscendLibrary, DynamicQuantLeavesFp32CasesToTheNaiveBaseline) {
  expect_refused_and_taken("dynamic_quant", "m1_k1", "m3_k7_fp16");
}

// aclnnConvolution takes FLOAT on Atlas A2/A3 only in HFLOAT32: the baseline refuses the fp32 cases, which are timed
// against the naive baseline, while an fp16 case runs the operator.
TEST(AscendLibrary, ConvolutionLeavesFp32CasesToTheNaiveBaseline) {
  expect_refused_and_taken("conv_2d", "n1_ci3_h7_w9_co5_k3_valid", "n1_ci8_h15_w16_co12_k3x5_p2_d2_fp16");
}

// aclnnSliceV2 takes positive steps only: a case with a negative stride is refused and timed against the naive
// baseline, while one with positive strides runs the operator.
// aclnnDequantSwigluQuant's page caps its inputs' memory on Atlas A2/A3 (10 times x's last dimension among it) under
// 192 KB: a 2H = 8192 row of int32 is past it (561002), a 2H = 2816 row is not.
TEST(AscendLibrary, DequantSwigluQuantLeavesRowsPastItsMemoryCapToTheNaiveBaseline) {
  expect_refused_and_taken("dequant_swiglu_quant", "m16_h4096", "m128_h1408", "561002");
}

TEST(AscendLibrary, StridedSliceLeavesNegativeStridesToTheNaiveBaseline) {
  expect_refused_and_taken("strided_slice", "d3_5_7_11_clamps", "d2_9_10_12_positive");
}

// aclnnQuantMatmulV4 gives int8 inputs with a FLOAT32 scale and a per-token scale FLOAT16 or BFLOAT16 out only on
// Atlas A2/A3: its first phase refuses fp32 out (161002), timed against the naive baseline, while fp16 out runs.
TEST(AscendLibrary, QuantMatmulLeavesFp32OutputsToTheNaiveBaseline) {
  expect_refused_and_taken("quant_matmul", "m7_k33_n5", "m9_k40_n17_fp16");
}

namespace {
// The task's library baseline measured on the fake board on case `name`'s seeded inputs, beside a candidate that
// computes nothing (the device does not judge; the caller does): the library's own outputs or its refusal, where no
// shipped kernel takes the case.
struct LibraryAlone {
  ConcreteCase c;
  MeasureRequest q;
  MeasureResult m;
};
LibraryAlone measure_library_alone(const std::string& task, const std::string& name, const fs::path& dir) {
  auto dev = make_device("ascend", cann().config({"FAKE_BISHENG_TWIN=1"}));
  const Task& t = *all_tasks().find(task);
  LibraryAlone r;
  std::string why;
  auto lib = library_impl_for(t, "ascend", &why);
  if (!lib) {
    ADD_FAILURE() << task << ": " << why;
    return r;
  }
  BuildOptions lo;
  lo.mode = "library";
  lo.build_dir = dir / "build";
  for (const auto& l : lib->link) lo.flags.push_back("-l" + l);
  BuildResult lb = dev->build(lib->source, lo);
  const std::string idle =
      "#include \"kernel_operator.h\"\n#include \"kope_ascend.h\"\n"
      "#ifdef ASCENDC_CPU_DEBUG\n#include \"tikicpulib.h\"\n#endif\nextern \"C\" __global__ __aicore__ void idle_custom(GM_ADDR y) {}\n"
      "extern \"C\" int kope_ascend_kernel(const kope_args* a, void* stream) {\n#ifdef ASCENDC_CPU_DEBUG\n"
      "  ICPU_RUN_KF(idle_custom, 1, (GM_ADDR)a->outputs[0].data);\n#else\n"
      "  idle_custom<<<1, nullptr, stream>>>((GM_ADDR)a->outputs[0].data);\n#endif\n  return 0;\n}\n";
  BuildOptions ko;
  ko.build_dir = dir / "build";
  BuildResult kb = dev->build(idle, ko);
  auto it = std::find_if(t.cases.begin(), t.cases.end(), [&](const auto& c) { return c.name == name; });
  if (!lb.ok || !kb.ok || it == t.cases.end()) {
    ADD_FAILURE() << task << "/" << name << ": " << lb.error << kb.error << (it == t.cases.end() ? "no such case" : "");
    return r;
  }
  r.c = resolve_case(t, *it);
  r.q.kcase = r.c;
  for (std::size_t i = 0; i < r.c.inputs.size(); ++i) {
    std::string bytes(static_cast<std::size_t>(r.c.inputs[i].numel) * dtype_size(r.c.inputs[i].dtype), '\0');
    generate_tensor(r.c.inputs[i], r.c.seed, i, bytes.data());
    r.q.inputs.push_back(bytes);
  }
  r.q.candidate = r.q.baseline = kb.artifact;
  r.q.library = lb.artifact;
  r.q.scratch = dir / ("job_" + name);
  r.m = dev->measure(r.q);
  EXPECT_EQ(r.m.outcome, Outcome::Ok) << task << "/" << name << ": " << r.m.message << "\n" << r.m.log;
  return r;
}
}  // namespace

// No case of mla is one both its shipped Ascend kernels (fp32 only) and the MLA form of aclnnFusedInferAttentionScoreV3
// (FLOAT16 and BFLOAT16 only) take, so the shipped-kernels test cannot run it: the library baseline is measured on
// its own, its outputs checked against the fp64 golden on an fp16 case it takes, and its refusal (161002) of an fp32
// case.
TEST(AscendLibrary, MlaRunsTheOperatorsMlaFormOnItsOwn) {
  test::TempDir tmp;
  const std::string taken = "b2_s1_h16_l128_c512_r64_fp16";
  LibraryAlone r = measure_library_alone("mla", taken, tmp / "mla");
  ASSERT_EQ(r.m.library_outputs.size(), 1u) << r.m.library_message;
  EXPECT_FALSE(r.m.library_ns.empty());
  TrustedSide trusted{EvalPaths::under(tmp / "ws")};
  EvalOptions o;
  o.cases = {taken};
  const auto golden = trusted.goldens(*all_tasks().find("mla"), {r.c}, o);
  ASSERT_EQ(golden.size(), 1u);
  std::vector<const void*> in;
  for (const std::string& b : r.q.inputs) in.push_back(b.data());
  const OutputCheck k =
      check_case_output(r.c, 0, r.m.library_outputs[0].data(), (*golden[0])[0].data(), r.c.outputs[0].threshold, in);
  EXPECT_TRUE(k.ok) << describe_check(k);
  LibraryAlone refused = measure_library_alone("mla", "b2_s3_h5_l37_c40_r8_causal", tmp / "mla");
  EXPECT_TRUE(refused.m.library_outputs.empty());
  EXPECT_NE(refused.m.library_message.find("the library returned 161002"), std::string::npos)
      << refused.m.library_message;
}

// aclnnGRU and aclnnLSTM take FLOAT32 and FLOAT16 only: their baselines refuse the tasks' bf16 case (161002), which
// is then timed against the naive baseline (their fp32 cases run in the shipped-kernels test).
TEST(AscendLibrary, RecurrentBaselinesLeaveBf16ToTheNaiveBaseline) {
  test::TempDir tmp;
  for (const std::string task : {"gru", "lstm"}) {
    LibraryAlone r = measure_library_alone(task, "t32_b8_i128_h128_bf16", tmp / "rnn");
    EXPECT_TRUE(r.m.library_outputs.empty()) << task;
    EXPECT_NE(r.m.library_message.find("the library returned 161002"), std::string::npos)
        << task << ": " << r.m.library_message;
  }
}

// The L3 and L4 tasks with no aclnn baseline: each task's "why" names its reason, and library_impl_for passes it on.
TEST(AscendLibrary, TasksWithoutAnAclnnBaselineSayWhy) {
  const std::map<std::string, std::string> reason = {
      // no aclnn call: MoeReRouting is a graph operator
      {"moe_re_routing", "no aclnnMoeReRouting two-phase call"},
      // aclnnRoiAlign has no aligned; aclnnRoiAlignV2 wants the rois packed as [K, 5] in the map's dtype, kernels
      // before the one the library timing profiles
      {"roi_align", "aclnnRoiAlignV2, which follows torchvision"},
      // the A8W8 path takes the weight only in FRACTAL_NZ on Atlas A2/A3
      {"grouped_matmul_swiglu_quant", "A8W8 weight only in FRACTAL_NZ"},
      // Dilation2D is a graph operator with no aclnn call (and an Ascend 950 kernel only)
      {"dilation_2d", "no aclnnDilation2d two-phase call"},
      // aclnnMhcSinkhorn runs on Ascend 950 only
      {"mhc_sinkhorn", "marks Atlas A2 and A3 unsupported"},
      // CANN documents no Engram operator
      {"engram_gate_fusion", "no aclnn operator for Engram's gate"},
      // the operator wants valid indices before invalid ones, which the task's lists are not
      {"sparse_flash_attention", "valid entries all come before the invalid ones"},
      // MlaProlog takes its three large weights in FRACTAL_NZ only and writes the key rows only into paged caches
      {"mla_prolog", "weightDkvKr only in FRACTAL_NZ"},
      // NonMaxSuppression runs on the inference series only, and keeps at most 700 boxes per class
      {"nms", "aclnnNonMaxSuppression runs only on the Atlas inference series"}};
  for (const auto& [task, words] : reason) {
    std::string why;
    EXPECT_FALSE(library_impl_for(*all_tasks().find(task), "ascend", &why)) << task;
    EXPECT_NE(why.find(words), std::string::npos) << task << ": " << why;
  }
}

TEST(AscendLibrary, ATaskWithoutAnAclnnOperatorSaysWhy) {
  register_fake_board();
  test::TempDir tmp;
  Evaluator ev{EvalPaths::under(tmp / "ws")};
  const Task& t = *all_tasks().find("masked_scale");
  std::string why;
  EXPECT_FALSE(library_impl_for(t, "ascend", &why));
  EXPECT_NE(why.find("aclnnMaskedScale runs only on Ascend 950"), std::string::npos) << why;
  auto ks = embedded_candidates(t.name, "ascend");
  EvalOptions o;
  o.device = "ascend-board";
  o.cases = {small_cases(t).front()};
  o.warmup = 0;
  o.reps = 2;
  EvalReport r = ev.evaluate(t, ks.front().source, ks.front().name, o);
  ASSERT_TRUE(r.correct()) << r.status() << " " << (r.errors.empty() ? "" : r.errors.front());
  bool said = false;
  for (const std::string& w : r.warnings) said |= w.find("library baseline: ascend: CANN's aclnnMaskedScale") == 0;
  EXPECT_TRUE(said) << "no warning naming why there is no library baseline";
  for (const CaseResult& c : r.cases) {
    EXPECT_EQ(c.baseline, "naive") << c.name;
    EXPECT_TRUE(c.library_ns.empty()) << c.name;
    EXPECT_TRUE(c.speedup.has_value()) << c.name;
  }
}

// A library whose operator refuses the call (FAKE_ACLNN_FAIL) is the library's failure: the candidate is timed
// against the naive baseline and the case says why.
TEST(AscendLibrary, AFailingOperatorLeavesTheCandidateTimedAgainstNaive) {
  auto dev = make_device("ascend", cann().config({"FAKE_BISHENG_TWIN=1", "FAKE_ACLNN_FAIL=Exp"}));
  test::TempDir tmp;
  const Task& t = *all_tasks().find("exp");
  std::string why;
  auto lib = library_impl_for(t, "ascend", &why);
  ASSERT_TRUE(lib) << why;
  BuildOptions lo;
  lo.mode = "library";
  lo.build_dir = tmp / "build";
  for (const auto& l : lib->link) lo.flags.push_back("-l" + l);
  BuildResult lb = dev->build(lib->source, lo);
  ASSERT_TRUE(lb.ok) << lb.error << "\n" << lb.log;
  BuildOptions ko;
  ko.build_dir = tmp / "build";
  BuildResult kb = dev->build(embedded_candidates("exp", "ascend").front().source, ko);
  ASSERT_TRUE(kb.ok) << kb.error << "\n" << kb.log;
  const ConcreteCase c = resolve_case(t, t.cases.front());
  MeasureRequest q;
  q.kcase = c;
  for (std::size_t i = 0; i < c.inputs.size(); ++i) {
    std::string bytes(static_cast<std::size_t>(c.inputs[i].numel) * dtype_size(c.inputs[i].dtype), '\0');
    generate_tensor(c.inputs[i], c.seed, i, bytes.data());
    q.inputs.push_back(bytes);
  }
  q.candidate = q.baseline = kb.artifact;
  q.library = lb.artifact;
  q.scratch = tmp / "job";
  MeasureResult m = dev->measure(q);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.message << "\n" << m.log;
  EXPECT_FALSE(m.candidate_ns.empty());
  EXPECT_TRUE(m.library_ns.empty());
  EXPECT_TRUE(m.library_outputs.empty());
  EXPECT_NE(m.library_message.find("the library returned 161002"), std::string::npos) << m.library_message;
}

