// The first half of the L3 operators (issue 21): data movement (transpose, strided_slice), pooling and
// morphology (adaptive_avg_pool_3d, dilation_2d), convolutions (depthwise_conv_2d, conv_2d,
// conv_3d_backprop_filter), the fused quantising operators (add_rms_norm_dynamic_quant, dequant_swiglu_quant) and
// Engram's gate (engram_gate_fusion).
// Every task parses and holds what a suite task must; its fp64 reference passes against itself; its shipped
// correct kernel passes and its shipped wrong kernel is rejected (the ATen baselines: test_library_baselines.cpp,
// whose builds take most of a minute each). Real compiles and runner processes, quick settings, the cases up to
// 600k elements not marked large (the full-size runs are `kope eval` and bench/suite_table.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "suite_checks.h"

using namespace kope;
using namespace kope::eval;
using namespace kope::exec;

namespace {

// In the order they were added; each one's task, kernels and tests land together.
const std::vector<std::string> kL3a = {"transpose", "strided_slice", "adaptive_avg_pool_3d", "dilation_2d",
                                        "depthwise_conv_2d", "conv_2d",
                                        "conv_3d_backprop_filter", "add_rms_norm_dynamic_quant",
                                        "dequant_swiglu_quant", "engram_gate_fusion"};

// Cases up to this many elements (inputs plus outputs), and not marked large, run in the quick tests.
constexpr int64_t kQuickElements = 600000;

// One workspace for the whole file (suite_checks.h), so the golden outputs of a task are computed once for all its tests.
test::SuiteShared& shared() { return test::suite_shared(); }
EvalOptions quick(const Task& t) { return test::quick_suite_options(t, kQuickElements); }
const CandidateSource& candidate(const std::string& task, const std::string& prefix) {
  return test::shipped_kernel(task, prefix);
}
std::string errors_of(const EvalReport& r) { return test::errors_of(r); }

}  // namespace

TEST(SuiteL3a, TasksHoldCasesKernelsAndLibrary) {
  for (const std::string& name : kL3a) {
    SCOPED_TRACE(name);
    const Task& t = shared().suite.require(name);
    EXPECT_EQ(t.level, 3);
    EXPECT_GE(t.cases.size(), 8u);
    EXPECT_FALSE(t.summary.empty());
    EXPECT_TRUE(t.library.count("cpu") == 1 && (t.library.at("cpu") || !t.library_why.empty()));
    const auto cands = embedded_candidates(t.name);
    EXPECT_GE(cands.size(), 2u);
    for (const auto& c : cands) EXPECT_FALSE(c.thought.empty()) << c.name;
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [](const Case& c) { return c.memory_bound; }));
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [](const Case& c) { return c.name.rfind("special", 0) == 0; }));
    EXPECT_GE(quick(t).cases.size(), 3u) << "too few quick cases";
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [](const Case& c) { return c.large; }))
        << "no case marked large: the benchmarks want one that stresses the machine";
    for (const auto& o : t.outputs)  // integer outputs are compared exactly
      if (!is_floating(o.dtype)) EXPECT_EQ(o.threshold.value_or(default_threshold(o.dtype)), 0.0) << o.name;
  }
}

class L3aTask : public ::testing::TestWithParam<std::string> {
 protected:
  const Task& task() { return shared().suite.require(GetParam()); }
};

TEST_P(L3aTask, ReferencePassesAgainstItself) {
  EvalOptions o = quick(task());
  o.cxxflags = {"-O1", "-DKOPE_REAL=double"};  // the fp64 reference itself, writing the task's storage types
  const EvalReport r = shared().ev.evaluate(task(), task().reference, GetParam() + ".reference.cpp", o);
  EXPECT_TRUE(r.correct()) << r.status() << errors_of(r);
}

TEST_P(L3aTask, ShippedCorrectKernelPasses) {
  const CandidateSource& c = candidate(GetParam(), "01_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  EXPECT_TRUE(r.correct()) << c.name << ": " << r.status() << errors_of(r) << r.compile.log;
  EXPECT_TRUE(r.speedup().has_value());
}

TEST_P(L3aTask, ShippedWrongKernelIsRejected) {
  const CandidateSource& c = candidate(GetParam(), "02_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  ASSERT_TRUE(r.compiled) << c.name << ": " << r.compile.error << r.compile.log;
  EXPECT_FALSE(r.correct()) << c.name << " was accepted";
  EXPECT_FALSE(r.errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Operators, L3aTask, ::testing::ValuesIn(kL3a),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

