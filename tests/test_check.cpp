#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "kope/check.h"

using namespace kope;

namespace {
const double kT = std::ldexp(1.0, -13);
}

TEST(Check, ExactOutputPasses) {
  std::vector<float> got = {1.0f, -2.5f, 0.0f};
  std::vector<double> gold = {1.0, -2.5, 0.0};
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT);
  EXPECT_TRUE(c.ok);
  EXPECT_EQ(c.max_rel, 0.0);
  EXPECT_EQ(c.mismatches, 0);
}

TEST(Check, MaxErrorAboveTenThresholdsFails) {
  std::vector<float> got(100, 1.0f);
  std::vector<double> gold(100, 1.0);
  got[42] = 1.0f + 11 * static_cast<float>(kT);  // one element beyond 10 t, mean still tiny
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT);
  EXPECT_FALSE(c.ok);
  EXPECT_LT(c.mean_rel, kT);
  EXPECT_EQ(c.worst_index, 42);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NEAR(c.got, 1.0 + 11 * kT, 1e-6);
  EXPECT_EQ(c.expected, 1.0);
}

TEST(Check, MeanErrorAboveThresholdFails) {
  std::vector<float> got(10, 1.0f + 2 * static_cast<float>(kT));  // every element 2 t off: max < 10 t, mean > t
  std::vector<double> gold(10, 1.0);
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT);
  EXPECT_LT(c.max_rel, 10 * kT);
  EXPECT_FALSE(c.ok);
}

TEST(Check, EpsilonGuardsZeroGolden) {
  std::vector<float> got = {1e-12f};
  std::vector<double> gold = {0.0};
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), 1, kT);
  EXPECT_NEAR(c.max_rel, 1e-12 / kRelEps, 1e-9);
  EXPECT_TRUE(c.ok);
}

TEST(Check, NonFiniteValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<float> got = {static_cast<float>(nan), static_cast<float>(inf), 1.0f};
  std::vector<double> gold = {nan, inf, 1.0};
  EXPECT_TRUE(check_output("y", DType::F32, got.data(), gold.data(), 3, kT).ok);
  got[2] = static_cast<float>(nan);  // a NaN where a number was due
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), 3, kT);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.worst_index, 2);
  got[2] = 1.0f;
  got[1] = -static_cast<float>(inf);
  EXPECT_FALSE(check_output("y", DType::F32, got.data(), gold.data(), 3, kT).ok);
}

TEST(Check, IntegersMustMatchExactly) {
  std::vector<int32_t> got = {1, 2, 3};
  std::vector<double> gold = {1, 2, 3};
  EXPECT_TRUE(check_output("i", DType::I32, got.data(), gold.data(), 3, 0.0).ok);
  got[1] = 3;
  OutputCheck c = check_output("i", DType::I32, got.data(), gold.data(), 3, 0.0);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
}
