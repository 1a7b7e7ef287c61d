#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kope/model/check.h"

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

namespace {
// The contract, element by element: the float paths (vectorised) must find the same worst element, count and
// verdict, and the same mean up to the order of summation.
OutputCheck by_definition(const float* got, const double* golden, std::size_t n, double t) {
  OutputCheck c;
  double sum = 0.0;
  const double inf = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < n; ++i) {
    const double g = golden[i], v = got[i];
    double rel = std::fabs(v - g) / (std::fabs(g) + kRelEps);
    if (std::isnan(g) || std::isnan(v)) rel = std::isnan(g) && std::isnan(v) ? 0.0 : inf;
    else if (std::isinf(g) || std::isinf(v)) rel = g == v ? 0.0 : inf;
    sum += rel;
    if (rel > 10 * t || (t == 0.0 && rel > 0.0)) ++c.mismatches;
    if (rel > c.max_rel || c.worst_index < 0) {
      c.max_rel = rel;
      c.worst_index = static_cast<int64_t>(i);
    }
  }
  c.mean_rel = n ? sum / static_cast<double>(n) : 0.0;
  c.ok = t == 0.0 ? c.max_rel == 0.0 : (c.mean_rel < t && c.max_rel < 10 * t);
  return c;
}
}  // namespace

TEST(Check, FloatPathsAgreeWithTheDefinition) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal(0, 1);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = trial % 7 == 0 ? 0 : 1 + rng() % (trial % 5 == 0 ? 20000 : 3000);
    std::vector<double> g(n);
    std::vector<float> v(n), gf(n);
    for (std::size_t i = 0; i < n; ++i) {
      gf[i] = static_cast<float>(normal(rng));
      g[i] = gf[i];
      v[i] = static_cast<float>(g[i] * (1 + 1e-4 * normal(rng)));
    }
    for (int k = 0; k < 3 && n; ++k) {  // NaN and infinity on either side, a doubled value
      const std::size_t i = rng() % n;
      switch (rng() % 5) {
        case 0: v[i] = nan; break;
        case 1: g[i] = gf[i] = nan; break;
        case 2: v[i] = inf; break;
        case 3: g[i] = gf[i] = inf; break;
        case 4: v[i] = gf[i] * 2; break;
      }
    }
    if (trial % 3 == 0 && n > 5) v[n / 2] = v[n / 3] = gf[n / 3] * 3;  // a tie: the first one is the worst
    const double t = trial % 11 == 0 ? 0.0 : 1e-3;
    const OutputCheck want = by_definition(v.data(), g.data(), n, t);
    for (const OutputCheck& got : {check_output("y", DType::F32, v.data(), g.data(), n, t),
                                   check_output_f32("y", v.data(), gf.data(), n, t)}) {
      SCOPED_TRACE("trial " + std::to_string(trial) + ", n " + std::to_string(n));
      EXPECT_EQ(got.worst_index, want.worst_index);
      EXPECT_EQ(got.max_rel, want.max_rel);
      EXPECT_EQ(got.mismatches, want.mismatches);
      EXPECT_EQ(got.ok, want.ok);
      if (std::isinf(want.mean_rel)) EXPECT_TRUE(std::isinf(got.mean_rel));
      else EXPECT_NEAR(got.mean_rel, want.mean_rel, 1e-12 * want.mean_rel + 1e-300);
    }
  }
}

// Accuracy reached (issue 16): bits from the relative errors, capped at the significand; ulps against the
// golden rounded to the dtype.
TEST(Check, BitsAndUlps) {
  std::vector<double> gold = {1.0, 3.0, -0.1, 1e-3};
  std::vector<float> got(gold.begin(), gold.end());
  OutputCheck c = check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT);
  EXPECT_EQ(c.max_ulps, 0.0);  // correctly rounded
  EXPECT_GT(c.bits, 23.0);
  EXPECT_LE(c.bits, 24.0);
  got[1] = std::nextafter(std::nextafter(got[1], 4.0f), 4.0f);  // two ulps up
  c = check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT);
  EXPECT_EQ(c.max_ulps, 2.0);
  EXPECT_NEAR(c.bits, -std::log2(2 * 0x1p-22 / 3.0), 0.01);
  got[0] = std::nanf("");
  EXPECT_TRUE(std::isinf(check_output("y", DType::F32, got.data(), gold.data(), got.size(), kT).max_ulps));
  // 12 significant bits: about 12 bits of accuracy.
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> d(1.0, 100.0);
  std::vector<double> g2(4096);
  std::vector<float> r12(4096);
  for (std::size_t i = 0; i < g2.size(); ++i) {
    g2[i] = d(rng);
    int e;
    const double m = std::frexp(g2[i], &e);
    r12[i] = static_cast<float>(std::ldexp(std::round(std::ldexp(m, 12)), e - 12));
  }
  c = check_output("y", DType::F32, r12.data(), g2.data(), g2.size(), kT);
  EXPECT_GT(c.bits, 11.5);
  EXPECT_LT(c.bits, 13.5);
  EXPECT_GT(c.max_ulps, 1000.0);
  // Integers: no bits, ulps are the absolute difference; fp16 counts its own ulps.
  std::vector<int32_t> ints = {5, 9};
  std::vector<double> gi = {5, 7};
  c = check_output("y", DType::I32, ints.data(), gi.data(), 2, 0.0);
  EXPECT_EQ(c.bits, -1.0);
  EXPECT_EQ(c.max_ulps, 2.0);
  EXPECT_EQ(ulp_distance(DType::F16, 1.0 + 0x1p-10, 1.0), 1.0);
  EXPECT_EQ(accuracy_bits(DType::BF16, 0.0), 8.0);
}
