// thought: RoI Align by (roi, channel) units over the AI cores, so each unit's P x P outputs are contiguous in the output; the roi's start, bin size and sampling grid on the scalar unit once per roi, then per bin row only the input rows its samples touch (a band of about bin-height + 2 rows, contiguous in NCHW) move in with one DataCopyPad (fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB), and each bin sums its samples' four taps bilinearly as torchvision does (all four neighbours multiplied in, NaN spreading through a zero weight), divided by the sample count; a band too tall for the UB reads its taps from global memory; the unit's bins leave in one copy (fp16 and bf16 Cast back once, CAST_RINT).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t BAND = 16384;    // input elements of one bin row's band in the UB
constexpr uint32_t OUTB = 4096;     // P x P outputs of a unit (P <= 64)
constexpr uint32_t MAX_CORES = 40;

// One sample coordinate along an axis, torchvision's way: valid (inside [-1, F]), low/high neighbour, fraction.
struct Tap {
  bool valid;
  int32_t lo, hi;
  float l;
};
__aicore__ inline Tap MakeTap(float v, int32_t F) {
  Tap t;
  t.valid = !(v < -1.0f || v > (float)F);
  if (v <= 0.0f) v = 0.0f;
  t.lo = (int32_t)v;
  if (t.lo >= F - 1) {
    t.lo = t.hi = F - 1;
    v = (float)t.lo;
  } else {
    t.hi = t.lo + 1;
  }
  t.l = v - (float)t.lo;
  return t;
}

template <typename T> class KernelRoiAlign {
 public:
  __aicore__ inline KernelRoiAlign() {}
  __aicore__ inline void Init(GM_ADDR in, GM_ADDR bidx, GM_ADDR boxes, GM_ADDR out, uint64_t N, uint64_t C, uint64_t F, uint64_t R,
                              uint64_t P, float scale, int32_t ratio, uint64_t unitsPerCore) {
    first_ = GetBlockIdx() * unitsPerCore;
    count_ = first_ >= R * C ? 0 : (R * C - first_ < unitsPerCore ? R * C - first_ : unitsPerCore);
    N_ = N, C_ = C, F_ = F, P_ = P, scale_ = scale, ratio_ = ratio;
    inGm_.SetGlobalBuffer((__gm__ T*)in, N * C * F * F);
    bGm_.SetGlobalBuffer((__gm__ int32_t*)bidx, R);
    boxGm_.SetGlobalBuffer((__gm__ float*)boxes, R * 4);
    outGm_.SetGlobalBuffer((__gm__ T*)out, R * C * P * P);
    pipe_.InitBuffer(inQ_, 2, BAND * sizeof(T));
    pipe_.InitBuffer(o_, OUTB * sizeof(float));
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe_.InitBuffer(bf_, BAND * sizeof(float));
      pipe_.InitBuffer(oT_, OUTB * sizeof(T));
    }
  }
  __aicore__ inline void Process() {
    int64_t roi = -1;
    for (uint64_t u = first_; u < first_ + count_; ++u) {
      const uint64_t r = u / C_, c = u % C_;
      if ((int64_t)r != roi) {
        roi = (int64_t)r;
        Roi(r);
      }
      Unit(u, c);
    }
  }

 private:
  __aicore__ inline void Roi(uint64_t r) {
    b_ = bGm_.GetValue(r);
    const float x1 = boxGm_.GetValue(4 * r) * scale_ - 0.5f, y1 = boxGm_.GetValue(4 * r + 1) * scale_ - 0.5f;
    const float x2 = boxGm_.GetValue(4 * r + 2) * scale_ - 0.5f, y2 = boxGm_.GetValue(4 * r + 3) * scale_ - 0.5f;
    x1_ = x1, y1_ = y1;
    bh_ = (y2 - y1) / (float)P_, bw_ = (x2 - x1) / (float)P_;
    if (ratio_ > 0) {
      gh_ = gw_ = ratio_;
    } else {  // ceil(size / P); the sizes are whole numbers over P, exact in fp32
      const float ch = bh_, cw = bw_;
      gh_ = (int32_t)ch, gw_ = (int32_t)cw;
      if ((float)gh_ < ch) ++gh_;
      if ((float)gw_ < cw) ++gw_;
    }
    count_s_ = gh_ * gw_ > 1 ? (float)(gh_ * gw_) : 1.0f;
  }
  __aicore__ inline float Tap4(const LocalTensor<float>& band, int32_t rowBase, const Tap& ty, const Tap& tx) {
    const int32_t F = (int32_t)F_;
    const float hy = 1.0f - ty.l, hx = 1.0f - tx.l;
    const uint32_t a = (uint32_t)((ty.lo - rowBase) * F), b = (uint32_t)((ty.hi - rowBase) * F);
    return hy * hx * band.GetValue(a + (uint32_t)tx.lo) + hy * tx.l * band.GetValue(a + (uint32_t)tx.hi) +
           ty.l * hx * band.GetValue(b + (uint32_t)tx.lo) + ty.l * tx.l * band.GetValue(b + (uint32_t)tx.hi);
  }
  __aicore__ inline float TapGm(uint64_t base, const Tap& ty, const Tap& tx) {
    const uint64_t F = F_;
    const float hy = 1.0f - ty.l, hx = 1.0f - tx.l;
    return hy * hx * (float)inGm_.GetValue(base + (uint64_t)ty.lo * F + (uint64_t)tx.lo) +
           hy * tx.l * (float)inGm_.GetValue(base + (uint64_t)ty.lo * F + (uint64_t)tx.hi) +
           ty.l * hx * (float)inGm_.GetValue(base + (uint64_t)ty.hi * F + (uint64_t)tx.lo) +
           ty.l * tx.l * (float)inGm_.GetValue(base + (uint64_t)ty.hi * F + (uint64_t)tx.hi);
  }
  __aicore__ inline void Unit(uint64_t u, uint64_t c) {
    LocalTensor<float> o = o_.Get<float>();
    const int32_t F = (int32_t)F_;
    const uint64_t base = ((uint64_t)b_ * C_ + c) * F_ * F_;
    for (uint64_t ph = 0; ph < P_; ++ph) {
      // the rows this bin row's valid samples touch: [rlo, rhi]
      int32_t rlo = F, rhi = -1;
      for (int32_t iy = 0; iy < gh_; ++iy) {
        const Tap ty = MakeTap(y1_ + (float)ph * bh_ + ((float)iy + 0.5f) * bh_ / (float)gh_, F);
        if (!ty.valid) continue;
        rlo = ty.lo < rlo ? ty.lo : rlo;
        rhi = ty.hi > rhi ? ty.hi : rhi;
      }
      const bool inUb = rhi >= rlo && (uint64_t)(rhi - rlo + 1) * F_ <= BAND;
      LocalTensor<T> xb;
      LocalTensor<float> band;
      if (inUb) {
        const uint32_t n = (uint32_t)(rhi - rlo + 1) * (uint32_t)F;
        xb = inQ_.template AllocTensor<T>();
        DataCopyPad(xb, inGm_[base + (uint64_t)rlo * F_], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        inQ_.EnQue(xb);
        xb = inQ_.template DeQue<T>();
        if constexpr (sizeof(T) == sizeof(float)) {
          band = xb.template ReinterpretCast<float>();
        } else {
          band = bf_.Get<float>();
          Cast(band, xb, RoundMode::CAST_NONE, n);
        }
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
      }
      for (uint64_t pw = 0; pw < P_; ++pw) {
        float sum = 0.0f;
        for (int32_t iy = 0; iy < gh_; ++iy) {
          const Tap ty = MakeTap(y1_ + (float)ph * bh_ + ((float)iy + 0.5f) * bh_ / (float)gh_, F);
          if (!ty.valid) continue;
          for (int32_t ix = 0; ix < gw_; ++ix) {
            const Tap tx = MakeTap(x1_ + (float)pw * bw_ + ((float)ix + 0.5f) * bw_ / (float)gw_, F);
            if (!tx.valid) continue;
            sum += inUb ? Tap4(band, rlo, ty, tx) : TapGm(base, ty, tx);
          }
        }
        o.SetValue((uint32_t)(ph * P_ + pw), sum / count_s_);
      }
      if (inUb) {
        PipeBarrier<PIPE_V>();
        inQ_.FreeTensor(xb);
      }
    }
    const uint32_t n = (uint32_t)(P_ * P_);
    if constexpr (sizeof(T) == sizeof(float)) {
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(outGm_[u * n], o.template ReinterpretCast<T>(), DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    } else {
      LocalTensor<T> ot = oT_.Get<T>();
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      Cast(ot, o, RoundMode::CAST_RINT, n);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(outGm_[u * n], ot, DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0});
    }
    SetFlag<HardEvent::MTE3_S>(0);  // the next unit's SetValues wait for the copy
    WaitFlag<HardEvent::MTE3_S>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQ_;
  TBuf<QuePosition::VECCALC> o_, bf_, oT_;
  GlobalTensor<T> inGm_, outGm_;
  GlobalTensor<int32_t> bGm_;
  GlobalTensor<float> boxGm_;
  uint64_t first_ = 0, count_ = 0, N_ = 1, C_ = 1, F_ = 1, P_ = 1;
  float scale_ = 1.0f, x1_ = 0.0f, y1_ = 0.0f, bh_ = 0.0f, bw_ = 0.0f, count_s_ = 1.0f;
  int32_t ratio_ = 0, gh_ = 1, gw_ = 1, b_ = 0;
};

extern "C" __global__ __aicore__ void roi_align_custom(GM_ADDR in, GM_ADDR bidx, GM_ADDR boxes, GM_ADDR out, uint64_t N, uint64_t C,
                                                       uint64_t F, uint64_t R, uint64_t P, float scale, int32_t ratio,
                                                       uint64_t unitsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelRoiAlign<half> op;
    op.Init(in, bidx, boxes, out, N, C, F, R, P, scale, ratio, unitsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelRoiAlign<bfloat16_t> op;
    op.Init(in, bidx, boxes, out, N, C, F, R, P, scale, ratio, unitsPerCore);
    op.Process();
  } else {
    KernelRoiAlign<float> op;
    op.Init(in, bidx, boxes, out, N, C, F, R, P, scale, ratio, unitsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *in = &a->inputs[0], *bi = &a->inputs[1], *bx = &a->inputs[2], *out = &a->outputs[0];
  if ((in->dtype != KOPE_F32 && in->dtype != KOPE_F16 && in->dtype != KOPE_BF16) || out->dtype != in->dtype || bi->dtype != KOPE_I32 ||
      bx->dtype != KOPE_F32 || in->ndim != 4 || out->ndim != 4)
    return 1;
  const uint64_t N = (uint64_t)in->shape[0], C = (uint64_t)in->shape[1], F = (uint64_t)in->shape[2];
  const uint64_t R = (uint64_t)bx->shape[0], P = (uint64_t)out->shape[2];
  if (R * C * P * P == 0) return 0;
  if (P * P > OUTB || F > BAND) return 1;  // UB sizes (a band holds at least one row)
  const float scale = (float)kope_attr_or(a, "spatial_scale", 0.25);
  const int32_t ratio = (int32_t)kope_attr_or(a, "sampling_ratio", 2);
  const uint64_t units = R * C;
  const uint32_t blockDim = units < MAX_CORES ? (uint32_t)units : MAX_CORES;
  const uint64_t unitsPerCore = (units + blockDim - 1) / blockDim;
  const int32_t dt = in->dtype == KOPE_F16 ? 1 : in->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR pin = (GM_ADDR)in->data, pbi = (GM_ADDR)bi->data, pbx = (GM_ADDR)bx->data, pout = (GM_ADDR)out->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(roi_align_custom, blockDim, pin, pbi, pbx, pout, N, C, F, R, P, scale, ratio, unitsPerCore, dt);
#else
  roi_align_custom<<<blockDim, nullptr, stream>>>(pin, pbi, pbx, pout, N, C, F, R, P, scale, ratio, unitsPerCore, dt);
#endif
  return 0;
}
