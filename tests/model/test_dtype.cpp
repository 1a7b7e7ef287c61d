#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kope/model/dtype.h"
#include "kope_kernel.h"

using namespace kope;

TEST(DType, ParsesNamesAndAliases) {
  EXPECT_EQ(parse_dtype("fp32"), DType::F32);
  EXPECT_EQ(parse_dtype("float16"), DType::F16);
  EXPECT_EQ(parse_dtype("bf16"), DType::BF16);
  EXPECT_EQ(parse_dtype("bool"), DType::U8);
  EXPECT_FALSE(parse_dtype("fp8"));
  EXPECT_EQ(dtype_name(DType::I64), "int64");
  EXPECT_EQ(dtype_size(DType::F16), 2u);
  EXPECT_EQ(dtype_size(DType::I64), 8u);
}

TEST(DType, ThresholdsFollowCannBench) {
  EXPECT_DOUBLE_EQ(default_threshold(DType::F32), std::ldexp(1.0, -13));
  EXPECT_DOUBLE_EQ(default_threshold(DType::F16), std::ldexp(1.0, -10));
  EXPECT_DOUBLE_EQ(default_threshold(DType::BF16), std::ldexp(1.0, -7));
  EXPECT_EQ(default_threshold(DType::I32), 0.0);
}

TEST(DType, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(kope_f32_to_f16(1.0f), 0x3c00);
  EXPECT_EQ(kope_f32_to_f16(-2.0f), 0xc000);
  EXPECT_EQ(kope_f32_to_f16(65504.0f), 0x7bff);
  EXPECT_EQ(kope_f32_to_f16(1e6f), 0x7c00);                      // overflow to infinity
  EXPECT_EQ(kope_f32_to_f16(std::ldexp(1.0f, -24)), 0x0001);     // smallest subnormal
  EXPECT_EQ(kope_f32_to_f16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie rounds to even
  EXPECT_EQ(kope_f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_TRUE(std::isnan(kope_f16_to_f32(kope_f32_to_f16(std::numeric_limits<float>::quiet_NaN()))));
  for (uint32_t h = 0; h < 0x7c00; ++h) {  // every finite positive half survives a round trip
    ASSERT_EQ(kope_f32_to_f16(kope_f16_to_f32(static_cast<uint16_t>(h))), h) << h;
  }
}

TEST(DType, BFloat16Conversions) {
  EXPECT_EQ(kope_f32_to_bf16(1.0f), 0x3f80);
  EXPECT_FLOAT_EQ(kope_bf16_to_f32(0x3f80), 1.0f);
  EXPECT_EQ(kope_f32_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);   // tie to even
  EXPECT_EQ(kope_f32_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_DOUBLE_EQ(round_to(DType::BF16, 3.14159), 3.140625);
}

TEST(DType, StoreAndLoadRoundTrip) {
  unsigned char buf[64];
  store_from_double(DType::I32, buf, 1, -7.6);
  EXPECT_EQ(load_as_double(DType::I32, buf, 1), -8.0);
  store_from_double(DType::U8, buf, 3, 300);
  EXPECT_EQ(load_as_double(DType::U8, buf, 3), 255.0);  // clamped, not wrapped
  store_from_double(DType::F16, buf, 2, 0.1);
  EXPECT_NEAR(load_as_double(DType::F16, buf, 2), 0.1, 1e-4);
  EXPECT_EQ(round_to(DType::F32, 0.1), static_cast<double>(0.1f));
}
