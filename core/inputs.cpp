#include "kope/inputs.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "kope/parallel.h"

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
}

void fill_sentinel(DType t, void* out, std::size_t numel) {
  if (!is_floating(t)) {
    std::memset(out, 0xA5, numel * dtype_size(t));
    return;
  }
  for (std::size_t i = 0; i < numel; ++i) store_from_double(t, out, i, std::numeric_limits<double>::quiet_NaN());
}

}  // namespace kope
