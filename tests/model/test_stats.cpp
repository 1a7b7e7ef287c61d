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
