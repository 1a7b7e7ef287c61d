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
#include "test_support.h"

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

struct Shared {
  test::TempDir dir;
  Evaluator ev{EvalPaths::under(dir.path())};
  Suite suite = Suite::embedded();
};
Shared& shared() {
  static Shared s;
  return s;
}

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
    if (n <= kQuickElements) o.cases.push_back(c.name);
  }
  return o;
}

std::string errors_of(const EvalReport& r) {
  std::string s;
  for (const auto& e : r.errors) s += "\n  " + e;
  for (const auto& c : r.cases)
    if (!c.correct()) s += "\n  " + c.name + ": " + c.message;
  return s;
}

const CandidateSource& candidate(const std::string& task, const std::string& prefix) {
  static std::map<std::string, std::vector<CandidateSource>> cache;
  auto& list = cache[task];
  if (list.empty()) list = embedded_candidates(task);
  for (const auto& c : list)
    if (c.name.rfind(task + "/" + prefix, 0) == 0) return c;
  throw Error("no candidate " + prefix + "* for " + task);
}

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
