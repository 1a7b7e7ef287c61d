// The L3 operators of issue 21, second half (top_k, unique, nms, the MoE routing trio, the quantised matmuls,
// roi_align, grouped_matmul, mhc_sinkhorn): every task parses, its fp64 reference passes against itself, its shipped correct
// kernel passes and its shipped wrong kernel is rejected, on the cases small enough for a test run (quick
// settings; the full-size runs are `kope eval` and bench/suite_table.sh). Outputs whose ties the operator leaves
// open are "index_of".
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "suite_checks.h"

using namespace kope;
using namespace kope::eval;
using namespace kope::exec;

namespace {

const std::vector<std::string> kL3b = {"top_k", "unique", "nms", "moe_gating_top_k_softmax", "moe_re_routing",
                                       "moe_finalize_routing", "quant_matmul", "weight_quant_batch_matmul",
                                       "roi_align", "grouped_matmul", "mhc_sinkhorn"};

// The outputs that hold indices of tied elements, checked by what they point at.
const std::map<std::string, std::string> kIndexOf = {
    {"top_k", "indices"}, {"nms", "keep"}, {"moe_gating_top_k_softmax", "expert_idx"}};

// Cases up to this many elements (inputs plus outputs) run in the quick tests.
constexpr int64_t kQuickElements = 600000;

test::SuiteShared& shared() { return test::suite_shared(); }
EvalOptions quick(const Task& t) { return test::quick_suite_options(t, kQuickElements); }
const CandidateSource& candidate(const std::string& task, const std::string& prefix) {
  return test::shipped_kernel(task, prefix);
}
std::string errors_of(const EvalReport& r) { return test::errors_of(r, true); }

}  // namespace

TEST(SuiteL3b, HoldsTheOperatorsWithCasesKernelsAndLibrary) {
  for (const std::string& name : kL3b) {
    SCOPED_TRACE(name);
    const Task& t = shared().suite.require(name);
    EXPECT_EQ(t.level, 3);
    EXPECT_GE(t.cases.size(), 8u);
    EXPECT_FALSE(t.summary.empty());
    EXPECT_TRUE(t.library.count("cpu") == 1 && (t.library.at("cpu") || !t.library_why.empty()));
    const auto cands = embedded_candidates(t.name);
    EXPECT_GE(cands.size(), 2u);
    for (const auto& c : cands) EXPECT_FALSE(c.thought.empty()) << c.name;
    EXPECT_GE(quick(t).cases.size(), 3u) << "too few quick cases";
    for (const auto& o : t.outputs) {
      if (!is_floating(o.dtype)) {
        EXPECT_EQ(o.threshold.value_or(default_threshold(o.dtype)), 0.0) << o.name;
      }
      const auto it = kIndexOf.find(name);
      EXPECT_EQ(o.index_of.has_value(), it != kIndexOf.end() && it->second == o.name) << o.name;
    }
  }
}

class L3bTask : public ::testing::TestWithParam<std::string> {
 protected:
  const Task& task() { return shared().suite.require(GetParam()); }
};

TEST_P(L3bTask, ReferencePassesAgainstItself) {
  EvalOptions o = quick(task());
  o.cxxflags = {"-O1", "-DKOPE_REAL=double"};  // the fp64 reference itself, writing the task's storage types
  const EvalReport r = shared().ev.evaluate(task(), task().reference, GetParam() + ".reference.cpp", o);
  EXPECT_TRUE(r.correct()) << r.status() << errors_of(r);
}

TEST_P(L3bTask, ShippedCorrectKernelPasses) {
  const CandidateSource& c = candidate(GetParam(), "01_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  EXPECT_TRUE(r.correct()) << c.name << ": " << r.status() << errors_of(r) << r.compile.log;
  EXPECT_TRUE(r.speedup().has_value());
}

TEST_P(L3bTask, ShippedWrongKernelIsRejected) {
  const CandidateSource& c = candidate(GetParam(), "02_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  ASSERT_TRUE(r.compiled) << c.name << ": " << r.compile.error << r.compile.log;
  EXPECT_FALSE(r.correct()) << c.name << " was accepted";
  EXPECT_FALSE(r.errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Operators, L3bTask, ::testing::ValuesIn(kL3b),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });
