// The task-level bootstrap interval of the speedup and the hardware-floor rule.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <random>

#include "kope/model/stats.h"

using namespace kope;

namespace {
std::vector<double> noisy(double centre, double spread, int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-spread, spread);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre * (1.0 + d(rng)));
  return v;
}
}  // namespace

TEST(Stats, NoiselessSamplesGiveAPointInterval) {
  auto ci = geomean_speedup_interval({{200, 200, 200}, {800, 800}}, {{100, 100, 100}, {100, 100}});
  ASSERT_TRUE(ci.has_value());
  EXPECT_NEAR(ci->low, 4.0, 1e-12);  // geometric mean of 2 and 8
  EXPECT_NEAR(ci->high, 4.0, 1e-12);
}

TEST(Stats, IntervalContainsThePointEstimateAndWidensWithNoise) {
  std::vector<std::vector<double>> base = {noisy(1000, 0.05, 9, 1), noisy(5000, 0.05, 9, 2)};
  std::vector<std::vector<double>> quiet = {noisy(500, 0.01, 9, 3), noisy(2500, 0.01, 9, 4)};
  std::vector<std::vector<double>> loud = {noisy(500, 0.4, 9, 3), noisy(2500, 0.4, 9, 4)};
  auto a = geomean_speedup_interval(base, quiet);
  auto b = geomean_speedup_interval(base, loud);
  ASSERT_TRUE(a && b);
  EXPECT_LT(a->low, 2.0 * 1.06);
  EXPECT_GT(a->high, 2.0 / 1.06);
  EXPECT_LE(a->low, a->high);
  EXPECT_GT(b->high - b->low, a->high - a->low);
  EXPECT_LT(b->low, a->low);
  // Deterministic: the same samples give the same interval.
  auto again = geomean_speedup_interval(base, loud);
  EXPECT_EQ(again->low, b->low);
  EXPECT_EQ(again->high, b->high);
}

TEST(Stats, MissingOrZeroSamplesGiveNoInterval) {
  EXPECT_FALSE(geomean_speedup_interval({}, {}).has_value());
  EXPECT_FALSE(geomean_speedup_interval({{1, 2}}, {{}}).has_value());
  EXPECT_FALSE(geomean_speedup_interval({{1, 2}}, {{0, 0, 0}}).has_value());
  EXPECT_FALSE(geomean_speedup_interval({{1, 2}}, {{1}, {2}}).has_value());
}

TEST(Stats, FromCaseResults) {
  CaseResult a, b;
  a.baseline_ns = {300, 300};
  a.kernel_ns = {100, 100};
  b.baseline_ns = {300, 300};
  b.kernel_ns = {100, 100};
  auto ci = task_speedup_interval({a, b});
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->low, 3.0, 1e-12);
}

// Eight cases of a hundred samples each (the evaluator's largest use): the interval covers the true 2.5x. Its
// cost is part of bench_eval_throughput's pace, not a timed assertion here (shared machines are noisy).
TEST(Stats, EightCasesOfAHundredSamplesCoverTheTrueSpeedup) {
  std::vector<std::vector<double>> base, kern;
  for (unsigned i = 0; i < 8; ++i) {
    base.push_back(noisy(1000, 0.1, 100, i));
    kern.push_back(noisy(400, 0.1, 100, 100 + i));
  }
  auto ci = geomean_speedup_interval(base, kern);
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, 2.5);
  EXPECT_GT(ci->high, 2.5);
}

TEST(Stats, HardwareFloorRule) {
  CaseResult c;
  EXPECT_FALSE(faster_than_hardware_floor(c));  // nothing measured
  c.hw_bound_ns = 10000;
  c.kernel_median_ns = 4999;
  EXPECT_TRUE(faster_than_hardware_floor(c));
  c.kernel_median_ns = 5000;
  EXPECT_FALSE(faster_than_hardware_floor(c));
  c.hw_bound_ns = 900;  // below 1 us the floor is lost in call overheads
  c.kernel_median_ns = 10;
  EXPECT_FALSE(faster_than_hardware_floor(c));
}

// Student's t against the printed table (two-sided 95% and 99%), and its symmetry.
TEST(Stats, StudentTQuantilesMatchTheTable) {
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.706, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 2), 4.303, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 5), 2.571, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.042, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.975, 1000), 1.962, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.995, 3), 5.841, 1e-3);
  EXPECT_NEAR(student_t_quantile(0.025, 4), -2.776, 1e-3);
  EXPECT_THROW(student_t_quantile(1.0, 4), std::invalid_argument);
  EXPECT_NEAR(student_t_quantile(1 - 0.025 / 66, 3), 14.194, 1e-3);  // a Bonferroni band over 66 kernels
  EXPECT_NEAR(student_t_quantile(0.9995, 1), 636.619, 1e-3);
  EXPECT_THROW(student_t_quantile(0.9, 0), std::invalid_argument);
}

// Two tasks: the first evaluated three times with whole-evaluation shifts of +d, -d and 0 in log (each case its
// own level), the second twice with +e and -e; a task seen once adds nothing. Pooled: (2d^2 + 2e^2) / 3 dof.
TEST(Stats, BetweenEvaluationsPoolsEachTasksShiftsOverItsEvaluations) {
  const double d = 0.2, e = 0.1;
  std::vector<BaselineMedian> rows;
  auto add = [&](int64_t ev, const std::string& group, double shift) {
    rows.push_back({ev, group, "small", 1000 * std::exp(shift)});
    rows.push_back({ev, group, "large", 90000 * std::exp(shift)});
  };
  add(1, "gelu abc", d);
  add(2, "gelu abc", -d);
  add(3, "gelu abc", 0);
  add(4, "exp def", e);
  add(5, "exp def", -e);
  add(6, "mish 123", 0.7);
  rows.push_back({7, "exp def", "small", 0});  // no median: left out, and so is its evaluation
  const BetweenEvaluations b = between_evaluations(rows);
  EXPECT_EQ(b.dof, 3);
  EXPECT_EQ(b.tasks, 2);
  EXPECT_EQ(b.evaluations, 6);
  EXPECT_NEAR(b.sd_log, std::sqrt((2 * d * d + 2 * e * e) / 3), 1e-12);
  // The same digest is what makes evaluations comparable: another digest of gelu is another group.
  rows[4].group = rows[5].group = "gelu xyz";
  EXPECT_EQ(between_evaluations(rows).dof, 2);
  EXPECT_EQ(between_evaluations({}).dof, 0);
}

// The between-evaluation term widens each side in log space by t(dof) sqrt(2) sd; too few degrees of freedom
// leave the interval as the evaluation measured it.
TEST(Stats, WideningAddsTheBetweenEvaluationTermOnEachSide) {
  const SpeedupInterval iv{1.8, 2.5};
  BetweenEvaluations b;
  b.sd_log = 0.05;
  b.dof = 1;
  EXPECT_EQ(widen_between_evaluations(iv, 2.0, b).low, 1.8);
  b.dof = 10;
  const SpeedupInterval w = widen_between_evaluations(iv, 2.0, b);
  const double t = student_t_quantile(0.975, 10) * std::sqrt(2.0) * 0.05;
  EXPECT_NEAR(std::log(2.0) - std::log(w.low), std::hypot(std::log(2.0 / 1.8), t), 1e-9);
  EXPECT_NEAR(std::log(w.high) - std::log(2.0), std::hypot(std::log(2.5 / 2.0), t), 1e-9);
  b.sd_log = 0;
  EXPECT_EQ(widen_between_evaluations(iv, 2.0, b).high, 2.5);
}

// A report's interval is the cases' bootstrap, widened by the report's between-evaluation term when it has one;
// the term survives the report's JSON.
TEST(Stats, AReportsIntervalCarriesItsBetweenEvaluationTerm) {
  EvalReport rep;
  CaseResult c;
  c.baseline_ns = noisy(3000, 0.02, 30, 7);
  c.kernel_ns = noisy(1000, 0.02, 30, 8);
  rep.cases = {c};
  const auto own = report_speedup_interval(rep);
  ASSERT_TRUE(own);
  const auto bare = task_speedup_interval(rep.cases);
  EXPECT_EQ(own->low, bare->low);
  rep.between = BetweenEvaluations{0.1, 20, 24, 12};
  const auto wide = report_speedup_interval(rep);
  ASSERT_TRUE(wide);
  EXPECT_LT(wide->low, 0.85 * own->low);
  EXPECT_GT(wide->high, 1.15 * own->high);
  const EvalReport back = report_from_json(rep.to_json());
  ASSERT_TRUE(back.between);
  EXPECT_EQ(back.between->dof, 20);
  EXPECT_EQ(back.between->evaluations, 24);
  EXPECT_DOUBLE_EQ(back.between->sd_log, 0.1);
  EXPECT_FALSE(report_from_json(EvalReport{}.to_json()).between);
}
