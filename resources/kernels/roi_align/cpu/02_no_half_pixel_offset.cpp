// thought: taps and weights of every bilinear sample computed once per roi and reused for every channel; the box scaled to the feature map (box * spatial_scale: pixel centres on the integer grid)
// kope:cxxflags -O3 -march=native
#include <cmath>
#include <vector>

#include "kope_kernel.h"

namespace {

struct Tap {
  int32_t o[4];
  float w[4];
};

// One axis of a sample: low and high index and weights, or `outside` (the sample contributes 0).
struct Axis {
  int32_t lo, hi;
  float l, h;
  bool outside;
};

Axis axis(float v, int64_t F) {
  Axis a{0, 0, 0.0f, 0.0f, false};
  if (v < -1.0f || v > (float)F) {
    a.outside = true;
    return a;
  }
  if (v <= 0) v = 0;
  a.lo = (int32_t)v;
  if (a.lo >= F - 1) {
    a.lo = a.hi = (int32_t)(F - 1);
    v = (float)a.lo;
  } else {
    a.hi = a.lo + 1;
  }
  a.l = v - (float)a.lo;
  a.h = 1.0f - a.l;
  return a;
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

template <class D> int run(const kope_args* a) {
  using T = typename D::T;
  const int64_t N = a->inputs[0].shape[0], C = a->inputs[0].shape[1], F = a->inputs[0].shape[2];
  const int64_t R = a->inputs[2].shape[0], P = a->outputs[0].shape[2];
  const T* in = static_cast<const T*>(a->inputs[0].data);
  const int32_t* bidx = static_cast<const int32_t*>(a->inputs[1].data);
  const float* boxes = static_cast<const float*>(a->inputs[2].data);
  T* out = static_cast<T*>(a->outputs[0].data);
  const float ss = (float)kope_attr_or(a, "spatial_scale", 0.25);
  const int64_t ratio = (int64_t)kope_attr_or(a, "sampling_ratio", 2);
  std::vector<Tap> taps;
  std::vector<int64_t> first((size_t)(P * P + 1));
  for (int64_t r = 0; r < R; ++r) {
    const int64_t b = bidx[r];
    if (b < 0 || b >= N) return 2;
    const float x1 = boxes[4 * r] * ss, y1 = boxes[4 * r + 1] * ss;
    const float x2 = boxes[4 * r + 2] * ss, y2 = boxes[4 * r + 3] * ss;
    const float rh = y2 - y1, rw = x2 - x1, bh = rh / (float)P, bw = rw / (float)P;
    const int64_t gh = ratio > 0 ? ratio : (int64_t)std::ceil(rh / (float)P);
    const int64_t gw = ratio > 0 ? ratio : (int64_t)std::ceil(rw / (float)P);
    const float inv = 1.0f / (float)(gh * gw > 1 ? gh * gw : 1);
    taps.clear();
    for (int64_t ph = 0; ph < P; ++ph)
      for (int64_t pw = 0; pw < P; ++pw) {
        first[ph * P + pw] = (int64_t)taps.size();
        for (int64_t iy = 0; iy < gh; ++iy) {
          const Axis ya = axis(y1 + (float)ph * bh + ((float)iy + 0.5f) * bh / (float)gh, F);
          for (int64_t ix = 0; ix < gw; ++ix) {
            const Axis xa = axis(x1 + (float)pw * bw + ((float)ix + 0.5f) * bw / (float)gw, F);
            if (ya.outside || xa.outside) continue;
            taps.push_back({{(int32_t)(ya.lo * F + xa.lo), (int32_t)(ya.lo * F + xa.hi), (int32_t)(ya.hi * F + xa.lo),
                             (int32_t)(ya.hi * F + xa.hi)},
                            {ya.h * xa.h, ya.h * xa.l, ya.l * xa.h, ya.l * xa.l}});
          }
        }
      }
    first[P * P] = (int64_t)taps.size();
    for (int64_t c = 0; c < C; ++c) {
      const T* src = in + (b * C + c) * F * F;
      T* o = out + (r * C + c) * P * P;
      for (int64_t bin = 0; bin < P * P; ++bin) {
        float sum = 0.0f;
        for (int64_t t = first[bin]; t < first[bin + 1]; ++t) {
          const Tap& tp = taps[t];
          sum += tp.w[0] * D::load(src[tp.o[0]]) + tp.w[1] * D::load(src[tp.o[1]]) + tp.w[2] * D::load(src[tp.o[2]]) +
                 tp.w[3] * D::load(src[tp.o[3]]);
        }
        o[bin] = D::store(sum * inv);
      }
    }
  }
  return 0;
}

}  // namespace

int kope_kernel(const kope_args* a) {
  if (a->inputs[1].dtype != KOPE_I32) return 3;
  switch (a->inputs[0].dtype) {
    case KOPE_F16: return run<F16>(a);
    case KOPE_BF16: return run<BF16>(a);
    default: return run<F32>(a);
  }
}
