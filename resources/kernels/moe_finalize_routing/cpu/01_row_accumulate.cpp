// thought: one output row at a time in an fp32 accumulator row that stays in L1: the two skips, then each of the token's k expert rows and bias rows scaled and added in a vectorised pass over H, converted to the output dtype once at the end; every input row is read once, sequentially
// kope:cxxflags -O3 -march=native
#include <vector>

#include "kope_kernel.h"

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
  using T = typename D::T;
  const int64_t N = a->inputs[1].shape[0], H = a->inputs[1].shape[1], E = a->inputs[3].shape[0];
  const int64_t K = a->inputs[4].shape[1];
  const T* x = static_cast<const T*>(a->inputs[0].data);
  const T* s1 = static_cast<const T*>(a->inputs[1].data);
  const T* s2 = static_cast<const T*>(a->inputs[2].data);
  const T* bias = static_cast<const T*>(a->inputs[3].data);
  const float* scales = static_cast<const float*>(a->inputs[4].data);
  const int32_t* rows = static_cast<const int32_t*>(a->inputs[5].data);
  const int32_t* experts = static_cast<const int32_t*>(a->inputs[6].data);
  T* out = static_cast<T*>(a->outputs[0].data);
  std::vector<float> acc((size_t)H);
  float* __restrict c = acc.data();
  for (int64_t i = 0; i < N; ++i) {
    const T* __restrict a1 = s1 + i * H;
    const T* __restrict a2 = s2 + i * H;
    for (int64_t h = 0; h < H; ++h) c[h] = D::load(a1[h]) + D::load(a2[h]);
    for (int64_t k = 0; k < K; ++k) {
      const int64_t r = rows[k * N + i], e = experts[i * K + k];
      if (r < 0 || r >= N * K || e < 0 || e >= E) return 2;
      const float s = scales[i * K + k];
      const T* __restrict xr = x + r * H;
      const T* __restrict br = bias + e * H;
      for (int64_t h = 0; h < H; ++h) c[h] += s * (D::load(xr[h]) + D::load(br[h]));
    }
    T* __restrict o = out + i * H;
    for (int64_t h = 0; h < H; ++h) o[h] = D::store(c[h]);
  }
  return 0;
}

int kope_kernel(const kope_args* a) {
  if (a->inputs[5].dtype != KOPE_I32 || a->inputs[6].dtype != KOPE_I32) return 3;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return run<F32>(a);
  }
}
