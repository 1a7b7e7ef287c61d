#include "kope/model/inputs.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "kope/base/error.h"
#include "kope/base/parallel.h"

namespace kope {

namespace {

struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

}  // namespace

void generate_tensor(const ConcreteTensor& t, uint64_t case_seed, std::size_t index, void* out) {
  // One SplitMix64 stream per tensor (its first value skipped), one draw per element (two for a normal): the
  // stream's state before element i is known, so ranges of elements are filled on several threads with exactly
  // the values a single pass gives.
  constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;
  const uint64_t start = case_seed * 0x100000001b3ULL + 0x51ed2705a1d3c1f7ULL * (index + 1) + kGamma;
  const InitSpec& s = t.init;
  const uint64_t draws = s.kind == InitSpec::Kind::Normal ? 2 : 1;
  parallel_ranges(static_cast<std::size_t>(std::max<int64_t>(t.numel, 0)), [&](std::size_t lo, std::size_t hi) {
    SplitMix64 rng{start + kGamma * draws * lo};
    for (std::size_t i = lo; i < hi; ++i) {
      double v = 0.0;
      switch (s.kind) {
        case InitSpec::Kind::Uniform: v = s.a + (s.b - s.a) * rng.uniform01(); break;
        case InitSpec::Kind::Normal: {
          double u1 = 1.0 - rng.uniform01(), u2 = rng.uniform01();
          v = s.a + s.b * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
          break;
        }
        case InitSpec::Kind::Bernoulli: v = rng.uniform01() < s.a ? 1.0 : 0.0; break;
        case InitSpec::Kind::RandInt: v = std::floor(s.a + rng.uniform01() * (s.b - s.a + 1.0)); break;
      }
      store_from_double(t.dtype, out, i, round_to(t.dtype, v));
    }
  });
  place_special(t, case_seed * 0x100000001b3ULL + index, out);
}

double special_value(DType dtype, const InitSpec& init, const std::string& token) {
  const bool fp = is_floating(dtype);
  auto need_fp = [&]() {
    if (!fp)
      throw Error("special value \"" + token + "\" needs a floating dtype; " + std::string(dtype_name(dtype)) +
                  " cannot hold it (use \"max\", \"lowest\", \"0\", \"low\", \"high\" or a number)");
  };
  const double inf = std::numeric_limits<double>::infinity();
  double denorm = 0.0, min_normal = 0.0, max = 0.0, lowest = 0.0;
  switch (dtype) {
    case DType::F32: denorm = 0x1p-149; min_normal = 0x1p-126; max = std::numeric_limits<float>::max(); break;
    case DType::F64: denorm = 0x1p-1074; min_normal = 0x1p-1022; max = std::numeric_limits<double>::max(); break;
    case DType::F16: denorm = 0x1p-24; min_normal = 0x1p-14; max = 65504.0; break;
    case DType::BF16: denorm = 0x1p-133; min_normal = 0x1p-126; max = 0x1.fep127; break;
    case DType::I32: max = 2147483647.0; lowest = -2147483648.0; break;
    case DType::I64: max = 9223372036854775807.0; lowest = -9223372036854775808.0; break;
    case DType::U8: max = 255.0; lowest = 0.0; break;
    case DType::I8: max = 127.0; lowest = -128.0; break;
  }
  if (fp) lowest = -max;
  if (token == "nan") return need_fp(), std::numeric_limits<double>::quiet_NaN();
  if (token == "inf") return need_fp(), inf;
  if (token == "-inf") return need_fp(), -inf;
  if (token == "-0") return need_fp(), -0.0;
  if (token == "denormal") return need_fp(), denorm;
  if (token == "-denormal") return need_fp(), -denorm;
  if (token == "min_normal") return need_fp(), min_normal;
  if (token == "0") return 0.0;
  if (token == "max") return max;
  if (token == "lowest") return lowest;
  if (token == "low") return round_to(dtype, init.a);
  if (token == "high") return round_to(dtype, init.b);
  char* end = nullptr;
  const double v = std::strtod(token.c_str(), &end);
  if (token.empty() || end != token.c_str() + token.size() || !std::isfinite(v))
    throw Error("unknown special value \"" + token + "\" (known: nan, inf, -inf, -0, 0, denormal, -denormal, "
                "min_normal, max, lowest, low, high, or a finite number)");
  if (!fp && (v > max || v < lowest || v != std::floor(v)))
    throw Error("special value " + token + " is not a " + std::string(dtype_name(dtype)) + " value");
  return round_to(dtype, v);
}

void place_special(const ConcreteTensor& t, uint64_t seed, void* out) {
  const InitSpec& s = t.init;
  if (s.special.empty() || t.numel <= 0) return;
  std::vector<double> values;
  for (const std::string& tok : s.special) values.push_back(special_value(t.dtype, s, tok));
  const auto n = static_cast<uint64_t>(t.numel);
  SplitMix64 rng{seed ^ 0x5be0cd19137e2179ULL};
  // Each value once at a seeded position (while there is room), then a seeded share of the rest.
  for (std::size_t j = 0; j < values.size() && j < n; ++j)
    store_from_double(t.dtype, out, static_cast<std::size_t>(rng.next() % n), values[j]);
  const auto extra = static_cast<uint64_t>(s.special_fraction * static_cast<double>(n));
  for (uint64_t k = 0; k < extra; ++k) {
    const uint64_t pos = rng.next() % n;
    store_from_double(t.dtype, out, static_cast<std::size_t>(pos), values[rng.next() % values.size()]);
  }
}

void fill_sentinel(DType t, void* out, std::size_t numel) {
  if (!is_floating(t)) {
    std::memset(out, 0xA5, numel * dtype_size(t));
    return;
  }
  for (std::size_t i = 0; i < numel; ++i) store_from_double(t, out, i, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace kope
