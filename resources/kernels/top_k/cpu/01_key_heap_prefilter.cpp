// thought: map each element to an unsigned key that orders like torch.topk (NaN on top, -0 just below 0), keep a min-heap of the k best (key, index) pairs, and skip 32-element blocks with one vectorised compare against the heap's smallest key, so most of the row costs a load and a compare
// kope:cxxflags -O3 -march=native
#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "kope_kernel.h"

// The order key of a float's bits: unsigned order is float order, every NaN above +inf.
static inline uint32_t key_f32(uint32_t u) {
  const uint32_t k = u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
  return (u & 0x7fffffffu) > 0x7f800000u ? 0xffffffffu : k;
}
template <uint32_t kInfBits> static inline uint32_t key_16(uint16_t h) {
  const uint32_t u = h;
  const uint32_t k = u ^ ((u & 0x8000u) ? 0xffffu : 0x8000u);
  return (u & 0x7fffu) > kInfBits ? 0xffffu : k;
}

struct F32 {
  using T = uint32_t;
  static uint32_t key(uint32_t u) { return key_f32(u); }
};
struct F16 {
  using T = uint16_t;
  static uint32_t key(uint16_t u) { return key_16<0x7c00u>(u); }
};
struct BF16 {
  using T = uint16_t;
  static uint32_t key(uint16_t u) { return key_16<0x7f80u>(u); }
};

// (key, index) packed so a larger pair is a larger key, or an equal key at a lower index.
static inline uint64_t pack(uint32_t key, int64_t j) { return ((uint64_t)key << 32) | (uint32_t)(0xffffffffu - (uint32_t)j); }
static inline int64_t index_of(uint64_t p) { return (int64_t)(0xffffffffu - (uint32_t)p); }

// Replaces the smallest of the min-heap h[0..k) by p and restores the heap.
static inline void replace_top(uint64_t* h, int64_t k, uint64_t p) {
  int64_t i = 0;
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= k) break;
    if (c + 1 < k && h[c + 1] < h[c]) ++c;
    if (h[c] >= p) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = p;
}

template <class E> static void row_topk(const typename E::T* x, int64_t n, int64_t k, typename E::T* vals,
                                        int64_t* idx, std::vector<uint64_t>& h) {
  h.resize((size_t)std::max(k, (int64_t)1));
  if (k * 4 >= n) {  // k close to n: select and sort all of them
    h.resize((size_t)n);
    for (int64_t j = 0; j < n; ++j) h[j] = pack(E::key(x[j]), j);
    std::nth_element(h.begin(), h.begin() + (k - 1), h.end(), std::greater<uint64_t>());
    std::sort(h.begin(), h.begin() + k, std::greater<uint64_t>());
  } else {
    for (int64_t j = 0; j < k; ++j) h[j] = pack(E::key(x[j]), j);
    std::make_heap(h.begin(), h.begin() + k, std::greater<uint64_t>());
    uint32_t floor = (uint32_t)(h[0] >> 32);
    constexpr int64_t B = 32;
    int64_t j = k;
    for (; j + B <= n; j += B) {
      uint32_t any = 0;
      for (int64_t t = 0; t < B; ++t) any |= E::key(x[j + t]) > floor;
      if (!any) continue;
      for (int64_t t = 0; t < B; ++t) {
        const uint64_t p = pack(E::key(x[j + t]), j + t);
        if (p > h[0]) {
          replace_top(h.data(), k, p);
          floor = (uint32_t)(h[0] >> 32);
        }
      }
    }
    for (; j < n; ++j) {
      const uint64_t p = pack(E::key(x[j]), j);
      if (p > h[0]) replace_top(h.data(), k, p);
    }
    std::sort(h.begin(), h.begin() + k, std::greater<uint64_t>());
  }
  for (int64_t t = 0; t < k; ++t) {
    idx[t] = index_of(h[t]);
    vals[t] = x[idx[t]];
  }
}

template <class E> static int run(const kope_args* a) {
  const kope_tensor& x = a->inputs[0];
  const int64_t R = x.shape[0], N = x.shape[1], K = a->outputs[0].shape[1];
  if (K > N || N >= 0xffffffffLL) return 2;
  const auto* xs = static_cast<const typename E::T*>(x.data);
  auto* vals = static_cast<typename E::T*>(a->outputs[0].data);
  auto* idx = static_cast<int64_t*>(a->outputs[1].data);
  std::vector<uint64_t> h;
  for (int64_t r = 0; r < R; ++r) row_topk<E>(xs + r * N, N, K, vals + r * K, idx + r * K, h);
  return 0;
}

int kope_kernel(const kope_args* a) {
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return run<F32>(a);
  }
}
