// thought: map every element to an unsigned key that orders like its value (its bits with the sign flipped, negatives inverted); when the keys span a range not much wider than N, one histogram pass gives values, counts and each bin's rank, and a second pass the inverse; otherwise an LSD radix sort of (key, index) pairs, 11 bits a pass, then one scan
// kope:cxxflags -O3 -march=native
#include <algorithm>
#include <cstring>
#include <vector>

#include "kope_kernel.h"

// Per dtype: the element's order key (unsigned, as the value orders) and the element back from a key.
struct F32 {
  using T = uint32_t;
  static uint64_t key(uint32_t u) {
    return u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
  }
  static uint32_t value(uint64_t k) { return (k & 0x80000000u) ? (uint32_t)k ^ 0x80000000u : ~(uint32_t)k; }
};
struct H16 {
  using T = uint16_t;
  static uint64_t key(uint16_t u) {
    return (uint16_t)(u ^ ((u & 0x8000u) ? 0xffffu : 0x8000u));
  }
  static uint16_t value(uint64_t k) { return (k & 0x8000u) ? (uint16_t)(k ^ 0x8000u) : (uint16_t)~k; }
};
struct I32 {
  using T = int32_t;
  static uint64_t key(int32_t v) { return (uint64_t)((int64_t)v + 2147483648LL); }
  static int32_t value(uint64_t k) { return (int32_t)((int64_t)k - 2147483648LL); }
};
struct I64 {
  using T = int64_t;
  static uint64_t key(int64_t v) { return (uint64_t)v ^ (1ULL << 63); }
  static int64_t value(uint64_t k) { return (int64_t)(k ^ (1ULL << 63)); }
};

// LSD radix sort of (key << 32 | index) by the key's `bits` low bits, 11 bits a pass.
static void radix_sort(std::vector<uint64_t>& a, int bits) {
  std::vector<uint64_t> tmp(a.size());
  std::vector<uint32_t> cnt(2048);
  for (int shift = 32; shift < 32 + bits; shift += 11) {
    std::fill(cnt.begin(), cnt.end(), 0);
    for (uint64_t v : a) ++cnt[(v >> shift) & 2047];
    uint32_t sum = 0;
    for (uint32_t& c : cnt) {
      const uint32_t t = c;
      c = sum;
      sum += t;
    }
    for (uint64_t v : a) tmp[cnt[(v >> shift) & 2047]++] = v;
    a.swap(tmp);
  }
}

template <class E> static int run(const kope_args* a) {
  using T = typename E::T;
  const int64_t n = a->inputs[0].numel;
  const T* x = static_cast<const T*>(a->inputs[0].data);
  T* values = static_cast<T*>(a->outputs[0].data);
  int64_t* inverse = static_cast<int64_t*>(a->outputs[1].data);
  int64_t* counts = static_cast<int64_t*>(a->outputs[2].data);
  memset(values, 0, (size_t)n * sizeof(T));
  memset(counts, 0, (size_t)n * sizeof(int64_t));
  uint64_t lo = ~0ULL, hi = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t k = E::key(x[i]);
    lo = k < lo ? k : lo;
    hi = k > hi ? k : hi;
  }
  int64_t u = 0;
  const uint64_t range = hi - lo + 1;
  if (range != 0 && range <= (uint64_t)std::max<int64_t>(4 * n, 1 << 16)) {  // range 0: the full 64-bit span
    std::vector<uint32_t> bin(range, 0);
    for (int64_t i = 0; i < n; ++i) ++bin[E::key(x[i]) - lo];
    for (uint64_t b = 0; b < range; ++b)
      if (bin[b]) {
        values[u] = E::value(lo + b);
        counts[u] = bin[b];
        bin[b] = (uint32_t)u++;
      }
    for (int64_t i = 0; i < n; ++i) inverse[i] = bin[E::key(x[i]) - lo];
  } else if (range - 1 <= 0xffffffffULL && n <= 0xffffffffLL) {
    std::vector<uint64_t> p((size_t)n);
    for (int64_t i = 0; i < n; ++i) p[i] = ((E::key(x[i]) - lo) << 32) | (uint64_t)i;
    int bits = 1;
    while (bits < 32 && ((range - 1) >> bits)) ++bits;
    radix_sort(p, bits);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t k = p[i] >> 32;
      if (i == 0 || k != (p[i - 1] >> 32)) values[u++] = E::value(lo + k);
      ++counts[u - 1];
      inverse[(uint32_t)p[i]] = u - 1;
    }
  } else {  // 64-bit keys over a wide range
    std::vector<std::pair<uint64_t, int64_t>> p((size_t)n);
    for (int64_t i = 0; i < n; ++i) p[i] = {E::key(x[i]), i};
    std::sort(p.begin(), p.end());
    for (int64_t i = 0; i < n; ++i) {
      if (i == 0 || p[i].first != p[i - 1].first) values[u++] = E::value(p[i].first);
      ++counts[u - 1];
      inverse[p[i].second] = u - 1;
    }
  }
  static_cast<int64_t*>(a->outputs[3].data)[0] = u;
  return 0;
}

int kope_kernel(const kope_args* a) {
  switch (a->inputs[0].dtype) {
    case KOPE_F16:
    case KOPE_BF16: return run<H16>(a);
    case KOPE_I32: return run<I32>(a);
    case KOPE_I64: return run<I64>(a);
    default: return run<F32>(a);
  }
}
