// The L4 operators (issue 21): every task parses, its fp64 reference passes against itself, its shipped correct
// kernel passes and its shipped wrong kernel is rejected. Real compiles, real runner processes; quick settings and
// the small cases only (the cases marked large, whose fp64 goldens take minutes, and the medium ones are for
// `kope eval` and `kope run --level 4`).
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

const std::vector<std::string> kL4 = {"gqa", "grouped_matmul_swiglu_quant", "gru", "lstm", "mha", "mla", "mla_prolog",
                                      "sparse_flash_attention"};

// Cases up to this many elements (inputs plus outputs) run here: a few hundred thousand keeps each task's goldens,
// reference, correct and wrong runs within seconds.
constexpr int64_t kQuickElements = 300000;

// One workspace for the whole file (suite_checks.h), so the golden outputs of a task are computed once for all its tests.
test::SuiteShared& shared() { return test::suite_shared(); }
EvalOptions quick(const Task& t) { return test::quick_suite_options(t, kQuickElements, 120); }
const CandidateSource& candidate(const std::string& task, const std::string& prefix) {
  return test::shipped_kernel(task, prefix);
}
std::string errors_of(const EvalReport& r) { return test::errors_of(r); }

}  // namespace

TEST(SuiteL4, HoldsItsOperatorsWithCasesKernelsAndLibrary) {
  const Suite l4 = shared().suite.at_levels({4});
  std::vector<std::string> names;
  for (const Task& t : l4.tasks()) names.push_back(t.name);
  EXPECT_EQ(names, kL4);
  for (const Task& t : l4.tasks()) {
    SCOPED_TRACE(t.name);
    EXPECT_EQ(t.level, 4);
    EXPECT_GE(t.cases.size(), 8u);
    EXPECT_FALSE(t.summary.empty());
    EXPECT_TRUE(t.library.count("cpu") == 1 && (t.library.at("cpu") || !t.library_why.empty()));
    const auto cands = embedded_candidates(t.name);
    EXPECT_GE(cands.size(), 2u);
    for (const auto& c : cands) EXPECT_FALSE(c.thought.empty()) << c.name;
    EXPECT_GE(quick(t).cases.size(), 3u) << "too few quick cases";
    EXPECT_NE(find_case(t, "special"), nullptr) << "no special-value case";
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [](const Case& c) { return c.large; }))
        << "no case marked large: the benchmarks want one that stresses the machine";
    // Reduced precisions: every attention operator has fp16 and bf16 cases.
    std::set<DType> dtypes;
    for (const Case& c : t.cases)
      for (const auto& [name, dt] : c.dtypes) dtypes.insert(dt);
    if (t.name == "mha" || t.name == "gqa" || t.name == "mla" || t.name == "sparse_flash_attention") {
      EXPECT_TRUE(dtypes.count(DType::F16) && dtypes.count(DType::BF16));
    }
    for (const auto& o : t.outputs) {
      if (!is_floating(o.dtype)) {
        EXPECT_EQ(o.threshold.value_or(default_threshold(o.dtype)), 0.0) << o.name;
      }
    }
  }
}

class L4Task : public ::testing::TestWithParam<std::string> {
 protected:
  const Task& task() { return shared().suite.require(GetParam()); }
};

TEST_P(L4Task, ReferencePassesAgainstItself) {
  EvalOptions o = quick(task());
  o.cxxflags = {"-O1", "-DKOPE_REAL=double"};  // the fp64 reference itself, writing the task's storage types
  const EvalReport r = shared().ev.evaluate(task(), task().reference, GetParam() + ".reference.cpp", o);
  EXPECT_TRUE(r.correct()) << r.status() << errors_of(r);
}

TEST_P(L4Task, ShippedCorrectKernelPasses) {
  const CandidateSource& c = candidate(GetParam(), "01_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  EXPECT_TRUE(r.correct()) << c.name << ": " << r.status() << errors_of(r) << r.compile.log;
  EXPECT_TRUE(r.speedup().has_value());
}

TEST_P(L4Task, ShippedWrongKernelIsRejected) {
  const CandidateSource& c = candidate(GetParam(), "02_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  ASSERT_TRUE(r.compiled) << c.name << ": " << r.compile.error << r.compile.log;
  EXPECT_FALSE(r.correct()) << c.name << " was accepted";
  EXPECT_FALSE(r.errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Operators, L4Task, ::testing::ValuesIn(kL4),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });
