// Library baselines (issue 11, item 1): each task's library implementation (ATen through libtorch on the CPU)
// builds, loads in the runner and is judged like a candidate against the fp64 golden, which shows its own
// correctness. A separate executable because every build parses ATen's headers (5-10 s of CPU each).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "kope/eval/evaluator.h"
#include "kope/eval/library.h"
#include "kope/model/report.h"
#include "kope/model/suite.h"
#include "test_support.h"

using namespace kope::eval;
using namespace kope::exec;

using namespace kope;

namespace {

struct Shared {
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Suite suite = Suite::embedded();
};
Shared& shared() {
  static Shared s;
  return s;
}

// The cases up to 600k elements, one call each.
EvalOptions quick(const Task& t) {
  EvalOptions o = test::quick_options();
  o.warmup = 0;
  o.reps = 1;
  o.pool = 1;
  o.case_timeout_seconds = 300;
  o.memory_bytes = uint64_t{3} << 30;
  for (const Case& c : t.cases) {
    const ConcreteCase cc = resolve_case(t, c);
    int64_t n = 0;
    for (const auto* list : {&cc.inputs, &cc.outputs})
      for (const auto& x : *list) n += x.numel;
    if (n <= 600000) o.cases.push_back(c.name);
  }
  return o;
}

bool aten_installed() { return std::filesystem::exists("/usr/include/ATen/core/Tensor.h"); }

}  // namespace

// ATen's gelu fails fp32's threshold in the
// negative tail (1 + erf(x / sqrt 2) cancels), and the report shows it.
class LibraryBaseline : public ::testing::TestWithParam<std::string> {};

TEST_P(LibraryBaseline, BuildsLoadsAndIsJudgedAgainstTheGolden) {
  ASSERT_TRUE(aten_installed()) << "libtorch-dev is not installed (scripts/install-deps.sh installs it)";
  const Task& t = shared().suite.require(GetParam());
  const LibraryImpl* lib = library_for(t, "cpu");
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(lib->threads, 1);
  EvalOptions o = quick(t);
  const EvalReport r = evaluate_library(shared().ev, t, "cpu", o);
  ASSERT_TRUE(r.compiled) << r.compile.error << r.compile.log;
  ASSERT_FALSE(r.cases.empty());
  for (const auto& c : r.cases) {
    EXPECT_TRUE(c.status == CaseStatus::Passed || c.status == CaseStatus::Wrong)
        << c.name << ": " << case_status_name(c.status) << ": " << c.message;
    // The judge stops timing once a case is wrong (issue 5), so only a library that passes is timed throughout.
    if (r.correct()) EXPECT_FALSE(c.kernel_ns.empty()) << c.name;
    // Issue 16: the fp64 references define the special values' results as ATen computes them, so the library
    // passes every special* case (gelu aside: its fp32 negative tail misses the threshold everywhere).
    if (GetParam() != "gelu" && c.name.rfind("special", 0) == 0) {
      EXPECT_EQ(c.status, CaseStatus::Passed) << c.name << ": " << c.message;
    }
  }
  if (GetParam() == "gelu") {
    EXPECT_FALSE(r.correct()) << "ATen's gelu was expected to miss the fp32 threshold in the negative tail";
    bool tail = false;
    for (const auto& c : r.cases)
      for (const auto& out : c.outputs)
        tail = tail || (!out.ok && out.expected < 0 && std::fabs(out.expected) < 1e-3);
    EXPECT_TRUE(tail) << "the worst element should be a tiny negative golden";
  }
}

INSTANTIATE_TEST_SUITE_P(Tasks, LibraryBaseline,
                         ::testing::Values("exp", "foreach_addcdiv_scalar", "foreach_norm", "gelu", "masked_scale",
                                           "mish", "sigmoid", "swi_glu", "apply_adam_w", "apply_rotary_pos_emb",
                                           "arg_max", "cross_entropy_loss", "cummin", "dynamic_quant", "gather", "gcd",
                                           "grid_sampler_3d", "group_norm", "maximum", "resize_bilinear", "rms_norm",
                                           "scatter", "softmax", "unsorted_segment_sum", "transpose", "strided_slice",
                                           "adaptive_avg_pool_3d", "depthwise_conv_2d", "conv_2d",
                                           "conv_3d_backprop_filter", "add_rms_norm_dynamic_quant",
                                           "dequant_swiglu_quant", "engram_gate_fusion", "gqa", "gru", "lstm", "mha",
                                           "mhc_sinkhorn", "mla", "grouped_matmul_swiglu_quant",
                                           "sparse_flash_attention", "mla_prolog"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// Issue 11, item 1: the library baseline as a third worker of the judge. A correct shipped gelu kernel is timed
// against ATen (speedup, HAP) and the naive baseline (the second column); ATen's own check against the golden
// is in the report, and it fails in the negative tail.
TEST(LibraryAsBaseline, GeluSpeedupIsAgainstTheLibraryAndItsTailFailureIsShown) {
  ASSERT_TRUE(aten_installed()) << "libtorch-dev is not installed (scripts/install-deps.sh installs it)";
  const Task& t = shared().suite.require("gelu");
  std::string source;
  for (const auto& k : embedded_candidates("gelu"))
    if (k.name == "gelu/02_erfc_vectorised.cpp") source = k.source;
  ASSERT_FALSE(source.empty());
  EvalOptions o = quick(t);
  o.library = true;
  o.warmup = 1;
  o.reps = 3;
  o.max_reps = 3;
  const EvalReport r = shared().ev.evaluate(t, source, "02_erfc_vectorised.cpp", o);
  ASSERT_TRUE(r.correct()) << r.status() << (r.errors.empty() ? "" : r.errors.front());
  EXPECT_EQ(r.baseline(), "library");
  bool tail_shown = false;
  for (const CaseResult& c : r.cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(c.baseline, "library");
    EXPECT_TRUE(c.library_ran);
    ASSERT_TRUE(c.library_correct.has_value());
    ASSERT_EQ(c.library_ns.size(), c.kernel_ns.size());
    ASSERT_TRUE(c.library_median_ns && c.naive_median_ns && c.kernel_median_ns && c.speedup && c.speedup_vs_naive);
    EXPECT_DOUBLE_EQ(*c.baseline_median_ns, *c.library_median_ns);
    EXPECT_NEAR(*c.speedup, *c.library_median_ns / *c.kernel_median_ns, 1e-9 * *c.speedup);
    EXPECT_NEAR(*c.speedup_vs_naive, *c.naive_median_ns / *c.kernel_median_ns, 1e-9 * *c.speedup_vs_naive);
    EXPECT_TRUE(c.hap_vs_naive.has_value());
    if (!*c.library_correct) {
      ASSERT_FALSE(c.library_outputs.empty());
      const OutputCheck& out = c.library_outputs.front();
      EXPECT_FALSE(out.ok);
      EXPECT_LT(out.expected, 0.0);
      EXPECT_LT(std::fabs(out.expected), 1e-3) << "the worst element should be a tiny negative golden";
      EXPECT_NE(c.library_message.find("misses the golden"), std::string::npos) << c.library_message;
      tail_shown = true;
    }
  }
  EXPECT_TRUE(tail_shown) << "ATen's gelu was expected to miss the fp32 threshold in the negative tail";
  EXPECT_EQ(r.library_correct(), std::optional<bool>(false));
  bool warned = false;
  for (const auto& w : r.warnings) warned = warned || w.find("library baseline misses") != std::string::npos;
  EXPECT_TRUE(warned) << "the library's failure is shown among the warnings";

  // The JSON carries both columns and loads back.
  const nlohmann::json j = r.to_json();
  EXPECT_EQ(j["baseline"], "library");
  EXPECT_FALSE(j["speedup_vs_naive"].is_null());
  EXPECT_EQ(j["library_correct"], false);
  const EvalReport back = report_from_json(j);
  ASSERT_EQ(back.cases.size(), r.cases.size());
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    EXPECT_EQ(back.cases[i].baseline, "library");
    EXPECT_EQ(back.cases[i].library_correct, r.cases[i].library_correct);
    EXPECT_EQ(back.cases[i].speedup_vs_naive, r.cases[i].speedup_vs_naive);
    EXPECT_EQ(back.cases[i].library_ns, r.cases[i].library_ns);
    EXPECT_EQ(back.cases[i].library_outputs.size(), r.cases[i].library_outputs.size());
  }
  EXPECT_EQ(back.speedup_vs_naive(), r.speedup_vs_naive());
  EXPECT_EQ(back.baseline(), "library");
  std::printf("gelu 02_erfc_vectorised: %.3fx vs the library, %.3fx vs the naive baseline\n", *r.speedup(),
              *r.speedup_vs_naive());
}

// A task that names no library keeps the naive-only behaviour: no third worker, the speedup is the naive one.
TEST(LibraryAsBaseline, TaskWithoutLibraryStaysNaive) {
  Task t = shared().suite.require("gelu");
  t.library.clear();
  std::string source;
  for (const auto& k : embedded_candidates("gelu"))
    if (k.name == "gelu/02_erfc_vectorised.cpp") source = k.source;
  EvalOptions o = test::quick_options();
  o.library = true;
  o.cases = {"n1000"};
  const EvalReport r = shared().ev.evaluate(t, source, "02_erfc_vectorised.cpp", o);
  ASSERT_TRUE(r.correct()) << r.status();
  EXPECT_EQ(r.baseline(), "naive");
  EXPECT_FALSE(r.library_correct().has_value());
  for (const CaseResult& c : r.cases) {
    EXPECT_EQ(c.baseline, "naive");
    EXPECT_FALSE(c.library_ran);
    EXPECT_TRUE(c.library_ns.empty());
    ASSERT_TRUE(c.speedup && c.speedup_vs_naive);
    EXPECT_EQ(*c.speedup, *c.speedup_vs_naive);
    EXPECT_EQ(c.baseline_median_ns, c.naive_median_ns);
  }
  EXPECT_EQ(r.to_json()["baseline"], "naive");
}
