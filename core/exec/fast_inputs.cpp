#include "kope/exec/fast_inputs.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "kope/model/dtype.h"
#include "kope/model/inputs.h"
#include "kope/base/parallel.h"
#include "kope/base/target_clones.h"

namespace kope::exec {

namespace {

uint64_t splitmix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A bijective 32-bit mix (lowbias32): element i of stream s is hash(i * golden + s).
inline uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Acklam's inverse normal CDF (relative error below 1.2e-9).
double inv_norm(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double lo = 0.02425;
  if (p < lo) {
    double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - lo) return -inv_norm(1 - p);
  double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

constexpr int kQBits = 14;
constexpr int kQ = 1 << kQBits;

// Standard normal quantiles at (k + 0.5) / kQ, plus one entry so interpolation never reads past the end.
const std::array<float, kQ + 1>& quantiles() {
  static const std::array<float, kQ + 1> q = [] {
    std::array<float, kQ + 1> t{};
    for (int k = 0; k < kQ; ++k) t[k] = static_cast<float>(inv_norm((k + 0.5) / kQ));
    t[kQ] = t[kQ - 1];
    return t;
  }();
  return q;
}

constexpr uint32_t kStep = 0x9e3779b9U;

// The float loops, one index range at a time (KOPE_CLONES): the hash is counter-based, so any range can be
// filled alone and the result does not depend on the split.

KOPE_CLONES void fill_uniform(float* y, std::size_t lo, std::size_t hi, uint32_t s1, float a, float w) {
  for (std::size_t i = lo; i < hi; ++i) {
    // (signed conversions: the values fit, and x86 converts signed integers to float in one instruction)
    const float u = static_cast<float>(static_cast<int32_t>(hash32(static_cast<uint32_t>(i) * kStep + s1) >> 8)) * 0x1.0p-24f;
    y[i] = a + w * u;
  }
}

KOPE_CLONES void fill_normal(float* __restrict y, std::size_t lo, std::size_t hi, uint32_t s1, float a, float b,
                             const float* __restrict q) {
  for (std::size_t i = lo; i < hi; ++i) {
    const uint32_t h = hash32(static_cast<uint32_t>(i) * kStep + s1);
    const auto k = static_cast<int32_t>(h >> (32 - kQBits));
    const float f = static_cast<float>(static_cast<int32_t>(h & ((1u << (32 - kQBits)) - 1))) * (1.0f / (1u << (32 - kQBits)));
    y[i] = a + b * (q[k] + f * (q[k + 1] - q[k]));
  }
}

// 1 where hash < thr: a Bernoulli draw with p = thr / 2^32 (thr up to 2^32, so p = 1 is every element).
KOPE_CLONES void fill_bernoulli_f32(float* y, std::size_t lo, std::size_t hi, uint32_t s1, uint64_t thr) {
  for (std::size_t i = lo; i < hi; ++i)
    y[i] = static_cast<uint64_t>(hash32(static_cast<uint32_t>(i) * kStep + s1)) < thr ? 1.0f : 0.0f;
}

KOPE_CLONES void fill_bernoulli_u8(uint8_t* y, std::size_t lo, std::size_t hi, uint32_t s1, uint64_t thr) {
  for (std::size_t i = lo; i < hi; ++i)
    y[i] = static_cast<uint64_t>(hash32(static_cast<uint32_t>(i) * kStep + s1)) < thr ? 1 : 0;
}

uint64_t bernoulli_threshold(double p) {
  // u = h / 2^32 < p exactly when the integer h < ceil(p * 2^32)
  return static_cast<uint64_t>(std::ceil(std::clamp(p, 0.0, 1.0) * 4294967296.0));
}

}  // namespace

uint64_t mix_seed(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return splitmix(splitmix(splitmix(splitmix(a) ^ b) ^ c) ^ d);
}

namespace {

void fill_fresh(const ConcreteTensor& t, uint64_t seed, void* out) {
  const InitSpec& s = t.init;
  const auto n = static_cast<std::size_t>(t.numel);
  const uint32_t s1 = static_cast<uint32_t>(seed), s2 = static_cast<uint32_t>(seed >> 32) | 1u;
  if (t.dtype == DType::F32) {
    float* y = static_cast<float*>(out);
    const float a = static_cast<float>(s.a), b = static_cast<float>(s.b);
    switch (s.kind) {
      case InitSpec::Kind::Uniform:
        return parallel_ranges(n, [&](std::size_t lo, std::size_t hi) { fill_uniform(y, lo, hi, s1, a, b - a); });
      case InitSpec::Kind::Normal: {
        const float* q = quantiles().data();
        return parallel_ranges(n, [&](std::size_t lo, std::size_t hi) { fill_normal(y, lo, hi, s1, a, b, q); });
      }
      case InitSpec::Kind::Bernoulli: {
        const uint64_t thr = bernoulli_threshold(s.a);
        return parallel_ranges(n, [&](std::size_t lo, std::size_t hi) { fill_bernoulli_f32(y, lo, hi, s1, thr); });
      }
      case InitSpec::Kind::RandInt: break;
    }
  }
  if (t.dtype == DType::U8 && s.kind == InitSpec::Kind::Bernoulli) {
    auto* y = static_cast<uint8_t*>(out);
    const uint64_t thr = bernoulli_threshold(s.a);
    return parallel_ranges(n, [&](std::size_t lo, std::size_t hi) { fill_bernoulli_u8(y, lo, hi, s1, thr); });
  }
  // Every other dtype and distribution: 53-bit uniforms from two streams, rounded through double.
  const auto& q = quantiles();
  parallel_ranges(n, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const uint32_t h1 = hash32(static_cast<uint32_t>(i) * kStep + s1);
      const uint32_t h2 = hash32(static_cast<uint32_t>(i) * kStep + s2 * 0x85ebca6bU);
      const double u = (static_cast<double>(h1 >> 5) * 67108864.0 + static_cast<double>(h2 >> 6)) * 0x1.0p-53;
      double v = 0.0;
      switch (s.kind) {
        case InitSpec::Kind::Uniform: v = s.a + (s.b - s.a) * u; break;
        case InitSpec::Kind::Normal: {
          const uint32_t k = h1 >> (32 - kQBits);
          const double f = static_cast<double>(h1 & ((1u << (32 - kQBits)) - 1)) / (1u << (32 - kQBits));
          v = s.a + s.b * (q[k] + f * (q[k + 1] - q[k]));
          break;
        }
        case InitSpec::Kind::Bernoulli: v = u < s.a ? 1.0 : 0.0; break;
        case InitSpec::Kind::RandInt: v = std::floor(s.a + u * (s.b - s.a + 1.0)); break;
      }
      store_from_double(t.dtype, out, i, round_to(t.dtype, v));
    }
  });
}

}  // namespace

void generate_fresh(const ConcreteTensor& t, uint64_t seed, void* out) {
  fill_fresh(t, seed, out);
  place_special(t, seed, out);  // the special values at positions of this call's own choosing
}

}  // namespace kope::exec
