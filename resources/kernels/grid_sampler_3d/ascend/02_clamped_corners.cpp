// thought: trilinear grid sampling with corner tables per tile of points; clamp each corner index into the volume so every tap is a valid read, no branch in the channel loop.
// flaw: with zeros padding a corner outside the volume must contribute 0, but the clamped index reads the border voxel
// with the corner's full weight, so samples near or beyond the edge (grid values of +-1 and +-1.2) come out too
// large.
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t TP = 512;        // output points per tile
constexpr uint32_t MAX_CORES = 40;

// The voxel coordinate of a grid value g along an axis of `size` voxels (align_corners; border clips).
__aicore__ inline float Unnormalize(float g, uint64_t size, int32_t align, int32_t border) {
  float c = align ? (g + 1.0f) / 2.0f * (float)(size - 1) : ((g + 1.0f) * (float)size - 1.0f) / 2.0f;
  if (border) c = c < 0.0f ? 0.0f : (c > (float)(size - 1) ? (float)(size - 1) : c);
  return c;
}
__aicore__ inline int64_t Floor(float v) {
  const int64_t t = (int64_t)v;
  return (float)t > v ? t - 1 : t;
}

// Output points split over the cores, in tiles of TP points of one batch n. Per tile the 8 corner offsets and
// trilinear weights of every point are tabulated in the UB once (coordinates on the scalar unit), then every
// channel is 8 taps per point read from GM, and the tile's run of out[n, c, :] leaves with DataCopyPad.
class KernelGridSampler3d {
 public:
  __aicore__ inline KernelGridSampler3d() {}
  __aicore__ inline void Init(GM_ADDR input, GM_ADDR grid, GM_ADDR out, uint64_t N, uint64_t C, uint64_t D, uint64_t H, uint64_t W,
                              uint64_t P, int32_t align, int32_t border, uint64_t perCore) {
    start_ = GetBlockIdx() * perCore;
    end_ = start_ >= N * P ? start_ : (N * P - start_ < perCore ? N * P : start_ + perCore);
    C_ = C, D_ = D, H_ = H, W_ = W, P_ = P, align_ = align, border_ = border;
    iGm_.SetGlobalBuffer((__gm__ float*)input, N * C * D * H * W);
    gGm_.SetGlobalBuffer((__gm__ float*)grid, N * P * 3);
    oGm_.SetGlobalBuffer((__gm__ float*)out, N * C * P);
    pipe_.InitBuffer(off_, 8 * TP * sizeof(int32_t));
    pipe_.InitBuffer(w_, 8 * TP * sizeof(float));
    pipe_.InitBuffer(o_, TP * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t idx = start_; idx < end_;) {
      const uint64_t n = idx / P_, p = idx % P_;
      uint64_t len = end_ - idx < TP ? end_ - idx : TP;
      len = P_ - p < len ? P_ - p : len;
      Tile(n, p, (uint32_t)len);
      idx += len;
    }
  }

 private:
  __aicore__ inline void Tile(uint64_t n, uint64_t p0, uint32_t len) {
    LocalTensor<int32_t> off = off_.Get<int32_t>();
    LocalTensor<float> w = w_.Get<float>(), o = o_.Get<float>();
    for (uint32_t i = 0; i < len; ++i) {
      const uint64_t g = (n * P_ + p0 + i) * 3;
      const float ix = Unnormalize(gGm_.GetValue(g), W_, align_, border_);
      const float iy = Unnormalize(gGm_.GetValue(g + 1), H_, align_, border_);
      const float iz = Unnormalize(gGm_.GetValue(g + 2), D_, align_, border_);
      const int64_t x0 = Floor(ix), y0 = Floor(iy), z0 = Floor(iz);
      const float fx = ix - (float)x0, fy = iy - (float)y0, fz = iz - (float)z0;
      for (uint32_t k = 0; k < 8; ++k) {
        int64_t xx = x0 + (k & 1), yy = y0 + ((k >> 1) & 1), zz = z0 + ((k >> 2) & 1);
        const float wk = ((k & 1) ? fx : 1 - fx) * (((k >> 1) & 1) ? fy : 1 - fy) * (((k >> 2) & 1) ? fz : 1 - fz);
        xx = xx < 0 ? 0 : (xx >= (int64_t)W_ ? (int64_t)W_ - 1 : xx);  // keep every tap inside the volume
        yy = yy < 0 ? 0 : (yy >= (int64_t)H_ ? (int64_t)H_ - 1 : yy);
        zz = zz < 0 ? 0 : (zz >= (int64_t)D_ ? (int64_t)D_ - 1 : zz);
        off.SetValue(k * TP + i, (int32_t)((zz * (int64_t)H_ + yy) * (int64_t)W_ + xx));
        w.SetValue(k * TP + i, wk);
      }
    }
    for (uint64_t c = 0; c < C_; ++c) {
      const uint64_t vol = (n * C_ + c) * D_ * H_ * W_;
      for (uint32_t i = 0; i < len; ++i) {
        float acc = 0.0f;
        for (uint32_t k = 0; k < 8; ++k) {
          const int32_t at = off.GetValue(k * TP + i);
          if (at >= 0) acc += w.GetValue(k * TP + i) * iGm_.GetValue(vol + (uint64_t)at);  // in-volume corners only
        }
        o.SetValue(i, acc);
      }
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(oGm_[(n * C_ + c) * P_ + p0], o, DataCopyExtParams{1, (uint32_t)(len * sizeof(float)), 0, 0, 0});
      SetFlag<HardEvent::MTE3_S>(0);
      WaitFlag<HardEvent::MTE3_S>(0);
    }
  }

  TPipe pipe_;
  TBuf<QuePosition::VECCALC> off_, w_, o_;
  GlobalTensor<float> iGm_, gGm_, oGm_;
  uint64_t start_ = 0, end_ = 0, C_ = 1, D_ = 1, H_ = 1, W_ = 1, P_ = 1;
  int32_t align_ = 0, border_ = 0;
};

extern "C" __global__ __aicore__ void grid_sampler_3d_custom(GM_ADDR input, GM_ADDR grid, GM_ADDR out, uint64_t N, uint64_t C, uint64_t D,
                                                             uint64_t H, uint64_t W, uint64_t P, int32_t align, int32_t border, uint64_t perCore) {
  KernelGridSampler3d op;
  op.Init(input, grid, out, N, C, D, H, W, P, align, border, perCore);
  op.Process();
}

// input [N, C, D, H, W], grid [N, DO, HO, WO, 3] holding (x, y, z), out [N, C, DO, HO, WO].
extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *in = &a->inputs[0], *grid = &a->inputs[1], *out = &a->outputs[0];
  if (in->dtype != KOPE_F32 || grid->dtype != KOPE_F32 || out->dtype != KOPE_F32 || in->ndim != 5 || grid->ndim != 5) return 1;
  const uint64_t N = (uint64_t)in->shape[0], C = (uint64_t)in->shape[1], D = (uint64_t)in->shape[2], H = (uint64_t)in->shape[3];
  const uint64_t W = (uint64_t)in->shape[4], P = (uint64_t)(grid->shape[1] * grid->shape[2] * grid->shape[3]);
  if (N * P == 0 || C == 0) return 0;
  const int32_t align = kope_attr_or(a, "align_corners", 0) != 0, border = kope_attr_or(a, "padding_mode", 0) == 1;
  const uint64_t perCore = (N * P + MAX_CORES - 1) / MAX_CORES;
  const uint32_t blockDim = (uint32_t)((N * P + perCore - 1) / perCore);
  GM_ADDR pi = (GM_ADDR)in->data, pg = (GM_ADDR)grid->data, po = (GM_ADDR)out->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(grid_sampler_3d_custom, blockDim, pi, pg, po, N, C, D, H, W, P, align, border, perCore);
#else
  grid_sampler_3d_custom<<<blockDim, nullptr, stream>>>(pi, pg, po, N, C, D, H, W, P, align, border, perCore);
#endif
  return 0;
}
