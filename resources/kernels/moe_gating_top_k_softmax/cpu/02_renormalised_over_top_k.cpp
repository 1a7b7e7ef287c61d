// thought: one pass per token: the max, a polynomial exp for the sum, the k best logits by an order key, and the winners' weights renormalised over the k selected (the gate weights of a token should sum to one)
// kope:cxxflags -O3 -march=native
#include <algorithm>
#include <cstring>
#include <vector>

#include "kope_kernel.h"

// exp(x) for x <= 0 (the logit minus the row's max): 2^n e^r with |r| <= ln2/2, a degree-6 Taylor polynomial,
// 0 below -87.3 where float's normal range ends. Branch-free, so the sum loop vectorises.
static inline float exp_neg(float x) {
  const float n = __builtin_rintf(x * 1.44269504f);
  const float r = (x - n * 0.693145751953125f) - n * 1.428606765330187e-06f;
  const float p = 1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 + r * (1.0f / 720))))));
  int32_t e = (int32_t)n + 127;
  e = e < 1 ? 1 : e;
  uint32_t bits = (uint32_t)e << 23;
  float scale;
  memcpy(&scale, &bits, 4);
  return x < -87.3f ? 0.0f : p * scale;
}

// A logit's order key: unsigned order is float order, -0 folded onto 0 (they tie).
static inline uint32_t key_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (u == 0x80000000u) u = 0;
  return u ^ ((uint32_t)((int32_t)u >> 31) | 0x80000000u);
}

struct F32 {
  using T = float;
  static float load(float v) { return v; }
  static float store(float v) { return v; }
};
struct F16 {
  using T = uint16_t;
  static float load(uint16_t v) { return kope_f16_to_f32(v); }
  static uint16_t store(float v) { return kope_f32_to_f16(v); }
};
struct BF16 {
  using T = uint16_t;
  static float load(uint16_t v) { return kope_bf16_to_f32(v); }
  static uint16_t store(float v) { return kope_f32_to_bf16(v); }
};

template <class D> static int run(const kope_args* a) {
  const int64_t T = a->inputs[0].shape[0], E = a->inputs[0].shape[1], K = a->outputs[0].shape[1];
  if (K > E || K < 1) return 2;
  const auto* x = static_cast<const typename D::T*>(a->inputs[0].data);
  auto* y = static_cast<typename D::T*>(a->outputs[0].data);
  int32_t* expert = static_cast<int32_t*>(a->outputs[1].data);
  int32_t* row = static_cast<int32_t*>(a->outputs[2].data);
  std::vector<float> v((size_t)E);
  std::vector<uint64_t> best((size_t)K + 1);  // (key << 32 | ~expert), descending
  for (int64_t t = 0; t < T; ++t) {
    const typename D::T* xr = x + t * E;
    float mx = -__builtin_inff();
    for (int64_t e = 0; e < E; ++e) {
      v[e] = D::load(xr[e]);
      mx = v[e] > mx ? v[e] : mx;
    }
    float sum = 0.0f;
    for (int64_t e = 0; e < E; ++e) sum += exp_neg(v[e] - mx);
    int64_t held = 0;
    for (int64_t e = 0; e < E; ++e) {
      const uint64_t p = ((uint64_t)key_of(v[e]) << 32) | (uint32_t)~(uint32_t)e;
      if (held == K && p <= best[K - 1]) continue;
      int64_t i = held < K ? held++ : K - 1;
      while (i > 0 && best[i - 1] < p) {
        best[i] = best[i - 1];
        --i;
      }
      best[i] = p;
    }
    float top = 0.0f;
    for (int64_t k = 0; k < K; ++k) top += exp_neg(v[~(uint32_t)best[k]] - mx);
    const float inv = 1.0f / top;
    for (int64_t k = 0; k < K; ++k) {
      const uint32_t e = ~(uint32_t)best[k];
      y[t * K + k] = D::store(exp_neg(v[e] - mx) * inv);
      expert[t * K + k] = (int32_t)e;
      row[t * K + k] = (int32_t)(k * T + t);
    }
  }
  return 0;
}

int kope_kernel(const kope_args* a) {
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return run<F32>(a);
  }
}
