// The L2 operators (issue 11): every task parses, its fp64 reference passes against itself, its shipped correct
// kernel passes and its shipped wrong kernel is rejected; suite levels; the suite report (library baselines:
// test_library_baselines.cpp); the special-value cases reject kernels that mishandle their values (issue 16). Real compiles, real runner processes; quick settings and the smaller cases
// (the full-size runs are `kope eval` / `kope run --level 2`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sys/wait.h>
#include <filesystem>
#include <map>
#include <sstream>
#include <set>

#include <nlohmann/json.hpp>

#include "kope/base/error.h"
#include "kope/eval/evaluator.h"
#include "kope/model/suite.h"
#include "kope/eval/suite_report.h"
#include "suite_checks.h"

using namespace kope::eval;
using namespace kope::exec;

using namespace kope;

namespace {

const std::vector<std::string> kL2 = {"apply_adam_w", "apply_rotary_pos_emb", "arg_max", "cross_entropy_loss",
                                      "cummin", "dynamic_quant", "gather", "gcd", "grid_sampler_3d", "group_norm",
                                      "maximum", "resize_bilinear", "rms_norm", "scatter", "softmax",
                                      "unsorted_segment_sum"};

// Cases up to this many elements (inputs plus outputs) run in the quick tests.
constexpr int64_t kQuickElements = 600000;

test::SuiteShared& shared() { return test::suite_shared(); }
EvalOptions quick(const Task& t) { return test::quick_suite_options(t, kQuickElements); }
const CandidateSource& candidate(const std::string& task, const std::string& prefix) {
  return test::shipped_kernel(task, prefix);
}
using test::errors_of;

}  // namespace

TEST(SuiteL2, HoldsTheSixteenOperatorsWithCasesKernelsAndLibrary) {
  const Suite l2 = shared().suite.at_levels({2});
  std::vector<std::string> names;
  for (const Task& t : l2.tasks()) names.push_back(t.name);
  EXPECT_EQ(names, kL2);
  for (const Task& t : l2.tasks()) {
    SCOPED_TRACE(t.name);
    EXPECT_EQ(t.level, 2);
    EXPECT_GE(t.cases.size(), 8u);
    EXPECT_FALSE(t.summary.empty());
    EXPECT_TRUE(t.library.count("cpu") == 1 && (t.library.at("cpu") || !t.library_why.empty()));
    const auto cands = embedded_candidates(t.name);
    EXPECT_GE(cands.size(), 2u);
    for (const auto& c : cands) EXPECT_FALSE(c.thought.empty()) << c.name;
    EXPECT_TRUE(std::any_of(t.cases.begin(), t.cases.end(), [](const Case& c) { return c.memory_bound; }));
    EXPECT_GE(quick(t).cases.size(), 3u) << "too few quick cases";
    // Integer and index outputs are compared exactly.
    for (const auto& o : t.outputs) {
      if (!is_floating(o.dtype)) {
        EXPECT_EQ(o.threshold.value_or(default_threshold(o.dtype)), 0.0) << o.name;
      }
    }
  }
}

TEST(SuiteLevels, FilterParseAndDefaults) {
  const Suite& all = shared().suite;
  // Levels 1 and 2 as issue 11 left them; the higher levels (issue 21) come after them.
  const std::vector<int> levels = all.levels();
  ASSERT_GE(levels.size(), 2u);
  EXPECT_EQ(std::vector<int>(levels.begin(), levels.begin() + 2), (std::vector<int>{1, 2}));
  EXPECT_EQ(all.at_levels({1}).tasks().size(), 8u);
  EXPECT_EQ(all.at_levels({2}).tasks().size(), 16u);
  EXPECT_EQ(all.at_levels({1, 2}).tasks().size(), 24u);
  EXPECT_EQ(all.at_levels({}).tasks().size(), all.tasks().size());
  EXPECT_GE(all.tasks().size(), 24u);
  EXPECT_THROW(all.at_levels({9}), Error);
  EXPECT_EQ(parse_levels("1,2"), (std::vector<int>{1, 2}));
  EXPECT_EQ(parse_levels("L2"), (std::vector<int>{2}));
  EXPECT_TRUE(parse_levels("all").empty());
  EXPECT_THROW(parse_levels("two"), Error);
  EXPECT_THROW(parse_levels(""), Error);
}

TEST(SuiteLevels, CliListsByLevel) {
  auto run = [](const std::string& args, int& rc) {
    std::string out;
    FILE* p = popen((std::string(KOPE_CLI_BINARY) + " " + args + " 2>&1").c_str(), "r");
    char buf[4096];
    while (p && fgets(buf, sizeof buf, p)) out += buf;
    rc = p ? WEXITSTATUS(pclose(p)) : -1;
    return out;
  };
  int rc = 0;
  auto j = nlohmann::json::parse(run("suite list --level 2 --json", rc));
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(j["tasks"].size(), 16u);
  for (const auto& t : j["tasks"]) EXPECT_EQ(t["level"], 2);
  const std::string text = run("suite list", rc);
  EXPECT_NE(text.find(std::to_string(shared().suite.tasks().size()) + " tasks"), std::string::npos) << text;
  EXPECT_NE(text.find("L2"), std::string::npos);
  run("suite list --level nine", rc);
  EXPECT_EQ(rc, 2);
}

class L2Task : public ::testing::TestWithParam<std::string> {
 protected:
  const Task& task() { return shared().suite.require(GetParam()); }
};

TEST_P(L2Task, ReferencePassesAgainstItself) {
  EvalOptions o = quick(task());
  o.cxxflags = {"-O1", "-DKOPE_REAL=double"};  // the fp64 reference itself, writing the task's storage types
  const EvalReport r = shared().ev.evaluate(task(), task().reference, GetParam() + ".reference.cpp", o);
  EXPECT_TRUE(r.correct()) << r.status() << errors_of(r);
}

TEST_P(L2Task, ShippedCorrectKernelPasses) {
  const CandidateSource& c = candidate(GetParam(), "01_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  EXPECT_TRUE(r.correct()) << c.name << ": " << r.status() << errors_of(r) << r.compile.log;
  EXPECT_TRUE(r.speedup().has_value());
}

TEST_P(L2Task, ShippedWrongKernelIsRejected) {
  const CandidateSource& c = candidate(GetParam(), "02_");
  const EvalReport r = shared().ev.evaluate(task(), c.source, c.name, quick(task()));
  ASSERT_TRUE(r.compiled) << c.name << ": " << r.compile.error << r.compile.log;
  EXPECT_FALSE(r.correct()) << c.name << " was accepted";
  EXPECT_FALSE(r.errors.empty());
}

INSTANTIATE_TEST_SUITE_P(Operators, L2Task, ::testing::ValuesIn(kL2),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// Issue 16: the special-value cases have teeth. Each row undoes, in a shipped correct kernel, the handling of one
// special value; the kernel still passes every ordinary case, and the named special case rejects it.
struct Mutation {
  const char* task;
  const char* from;  // text of the shipped 01_* kernel
  const char* to;
  const char* special_case;
  const char* ordinary_case;
};

const Mutation kMutations[] = {
    {"arg_max", "      nan |= v != v;\n", "", "special", "a64_r1024_b1_ties"},  // NaN no longer the maximum
    {"cummin", "v != v || v <= best;", "v <= best;", "special", "a64_r1024_b1_ties"},  // NaN never taken
    {"dynamic_quant", "__builtin_rintf", "__builtin_roundf", "special_ties", "m16_k4096_fp16"},  // half away from 0
    {"cross_entropy_loss", "shifted != shifted ? __builtin_nanf(\"\") : ", "", "special_nan", "n7_c1000"},
    {"swi_glu", "      const float s = av[h] / (1.0f + expf(-av[h]));", "      const float s = av[h] / (1.0f + expf(fminf(-av[h], 88.0f)));",
     "special", "m64_h1024"},  // a clamped exp: silu(-1e30) is -1e30 / e^88, not -0
    {"masked_scale", "y[i] = x[i] * (float)mask[i] * scale;", "y[i] = mask[i] ? x[i] * scale : 0.0f;", "special", "n1023"},
};

TEST(SpecialCases, RejectAKernelThatMishandlesTheirValues) {
  for (const Mutation& m : kMutations) {
    SCOPED_TRACE(m.task);
    const Task& t = shared().suite.require(m.task);
    std::string source;
    for (const auto& c : embedded_candidates(m.task))
      if (c.name.rfind(std::string(m.task) + "/01_", 0) == 0) source = c.source;
    const auto at = source.find(m.from);
    ASSERT_NE(at, std::string::npos) << "the shipped kernel changed: " << m.from;
    source.replace(at, std::string(m.from).size(), m.to);
    EvalOptions o = quick(t);
    o.cases = {m.ordinary_case, m.special_case};
    const EvalReport r = shared().ev.evaluate(t, source, std::string(m.task) + "_mutated.cpp", o);
    ASSERT_TRUE(r.compiled) << r.compile.error << r.compile.log;
    ASSERT_EQ(r.cases.size(), 2u);
    for (const CaseResult& c : r.cases) {
      if (c.name == m.ordinary_case) EXPECT_TRUE(c.correct()) << c.name << ": " << c.message;
      else EXPECT_FALSE(c.correct()) << c.name << " accepted the mutated kernel";
    }
  }
}

TEST(SuiteReport, GeomeansMemoryBoundScoreAndFast1) {
  const Task& t = shared().suite.require("softmax");
  TaskRecord a;
  a.task = "softmax";
  a.level = 2;
  a.evaluated = a.compiled = true;
  for (const Case& c : t.cases) a.cases.push_back({c.name, true, c.memory_bound, c.memory_bound ? 0.5 : 8.0, 0.5});
  const TaskSummary s = summarize_task(a);
  ASSERT_TRUE(s.speedup && s.memory_bound_speedup);
  EXPECT_NEAR(*s.memory_bound_speedup, 0.5, 1e-12);
  EXPECT_GT(*s.speedup, 1.0);  // the small cases flatter the geometric mean; the memory-bound one does not
  EXPECT_NEAR(s.score, 100.0 * (0.2 + 0.3 + 0.25), 1e-9);
  EXPECT_TRUE(s.fast);  // no library measurement: against the naive baseline

  TaskRecord b = a;
  b.task = "gcd";
  b.library_speedup = 0.8;  // slower than the library
  TaskRecord c = a;
  c.task = "scatter";
  c.cases[0].correct = false;  // wrong: never fast, loses the case's score
  c.library_speedup = 3.0;
  const SuiteSummary sum = summarize_suite({a, b, c});
  EXPECT_EQ(sum.tasks_correct, 2);
  EXPECT_NEAR(sum.fast_1, 1.0 / 3.0, 1e-12);
  EXPECT_EQ(sum.fast_1_against, "library where measured, else naive");
  EXPECT_FALSE(sum.tasks[2].fast);
  EXPECT_LT(sum.tasks[2].score, sum.tasks[0].score);
  EXPECT_EQ(sum.cases, 3 * static_cast<int>(t.cases.size()));
  auto j = to_json(sum);
  EXPECT_EQ(j["tasks"].size(), 3u);
  std::ostringstream text;
  print_suite_summary(sum, text);
  EXPECT_NE(text.str().find("fast_1"), std::string::npos);
}

TEST(SuiteReport, RecordsFromAReportMarkMemoryBoundCases) {
  const Task& t = shared().suite.require("rms_norm");
  EvalReport rep;
  rep.compiled = true;
  for (const Case& c : t.cases) {
    CaseResult cr;
    cr.name = c.name;
    cr.speedup = 2.0;
    cr.hap = 0.7;
    rep.cases.push_back(cr);
  }
  const TaskRecord from_report = task_record(t, rep);
  const TaskRecord from_json = task_record(t, rep.to_json());
  ASSERT_EQ(from_report.cases.size(), t.cases.size());
  ASSERT_EQ(from_json.cases.size(), t.cases.size());
  for (std::size_t i = 0; i < t.cases.size(); ++i) {
    EXPECT_EQ(from_report.cases[i].memory_bound, t.cases[i].memory_bound);
    EXPECT_EQ(from_json.cases[i].memory_bound, t.cases[i].memory_bound);
    EXPECT_EQ(from_json.cases[i].speedup, 2.0);
  }
  // L1 tasks mark nothing: their 4M-element fp32 cases (32 MiB moved) count by traffic.
  const Task& gelu = shared().suite.require("gelu");
  const TaskRecord g = task_record(gelu, EvalReport{});
  EXPECT_TRUE(g.cases.empty());
  EvalReport grep;
  for (const Case& c : gelu.cases) {
    CaseResult cr;
    cr.name = c.name;
    grep.cases.push_back(cr);
  }
  const TaskRecord gr = task_record(gelu, grep);
  EXPECT_TRUE(gr.cases.back().memory_bound);    // n4m_wide
  EXPECT_FALSE(gr.cases.front().memory_bound);  // n1
}
