// thought: the filter gradient by (input channel, output-channel group) units over the AI cores: per grad_y row (n, od, oh) the group's rows move in with one strided DataCopyPad and, per depth and height tap, the x row the tap reads; per width tap the scalar unit gathers the OW x values (stride, dilation and zero padding as index arithmetic), and the vector unit multiplies them into every output channel's grad_y row and adds into a per-(co, tap) accumulator row (Mul + Add), so the gathers are shared by the group; at the end ReduceSum folds each accumulator row and the group's taps leave in one strided copy (fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB and back once at the end, fp32 sums).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t ACC = 20480;     // accumulator floats: group x taps x padded output row
constexpr uint32_t GYB = 4096;      // the group's grad_y rows (cog x padded OW)
constexpr uint32_t XB = 2048;       // one x row (W)
constexpr uint32_t OUTB = 2048;     // the group's gradient taps (cog x padded taps)
constexpr uint32_t MAX_CORES = 40;

struct Geo {
  uint64_t N, Ci, D, H, W, Co, KD, KH, KW, OD, OH, OW, sd, sh, sw, pd, ph, pw, dd, dh, dw, cog;
};

template <typename T> class KernelConv3dBackpropFilter {
 public:
  __aicore__ inline KernelConv3dBackpropFilter() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR gy, GM_ADDR gw, const Geo& g, uint64_t unitsPerCore) {
    g_ = g;
    const uint64_t groups = (g.Co + g.cog - 1) / g.cog, units = g.Ci * groups;
    first_ = GetBlockIdx() * unitsPerCore;
    count_ = first_ >= units ? 0 : (units - first_ < unitsPerCore ? units - first_ : unitsPerCore);
    taps_ = (uint32_t)(g.KD * g.KH * g.KW);
    OWp_ = (uint32_t)((g.OW * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    TPp_ = (uint32_t)((taps_ * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    xGm_.SetGlobalBuffer((__gm__ T*)x, g.N * g.Ci * g.D * g.H * g.W);
    gyGm_.SetGlobalBuffer((__gm__ T*)gy, g.N * g.Co * g.OD * g.OH * g.OW);
    gwGm_.SetGlobalBuffer((__gm__ T*)gw, g.Co * g.Ci * taps_);
    pipe_.InitBuffer(gyQ_, 2, GYB * sizeof(T));
    pipe_.InitBuffer(xQ_, 2, XB * sizeof(T));
    pipe_.InitBuffer(acc_, ACC * sizeof(float));
    pipe_.InitBuffer(col_, XB * sizeof(float));
    pipe_.InitBuffer(tmp_, XB * sizeof(float));
    pipe_.InitBuffer(out_, OUTB * sizeof(float));
    pipe_.InitBuffer(red_, 64 * sizeof(float));
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe_.InitBuffer(gyf_, GYB * sizeof(float));
      pipe_.InitBuffer(xf_, XB * sizeof(float));
      pipe_.InitBuffer(outT_, OUTB * sizeof(T));
    }
  }
  __aicore__ inline void Process() {
    const uint64_t groups = (g_.Co + g_.cog - 1) / g_.cog;
    for (uint64_t u = first_; u < first_ + count_; ++u) {
      const uint64_t ci = u / groups, c0 = (u % groups) * g_.cog;
      const uint32_t cg = (uint32_t)(g_.Co - c0 < g_.cog ? g_.Co - c0 : g_.cog);
      LocalTensor<float> acc = acc_.Get<float>();
      Duplicate(acc, 0.0f, (int32_t)(cg * taps_ * OWp_));
      for (uint64_t n = 0; n < g_.N; ++n)
        for (uint64_t od = 0; od < g_.OD; ++od)
          for (uint64_t oh = 0; oh < g_.OH; ++oh) Row(ci, c0, cg, n, od, oh);
      Finish(ci, c0, cg);
    }
  }

 private:
  // grad_y row (n, od, oh) of the group's channels times every tap's x values.
  __aicore__ inline void Row(uint64_t ci, uint64_t c0, uint32_t cg, uint64_t n, uint64_t od, uint64_t oh) {
    const uint32_t OW = (uint32_t)g_.OW;
    LocalTensor<T> gb = gyQ_.template AllocTensor<T>();
    const uint64_t plane = g_.OD * g_.OH * g_.OW;
    DataCopyPad(gb, gyGm_[((n * g_.Co + c0) * g_.OD + od) * g_.OH * g_.OW + oh * g_.OW],
                DataCopyExtParams{(uint16_t)cg, (uint32_t)(OW * sizeof(T)), (uint32_t)((plane - OW) * sizeof(T)), 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    gyQ_.EnQue(gb);
    gb = gyQ_.template DeQue<T>();
    LocalTensor<float> gy;
    if constexpr (sizeof(T) == sizeof(float)) {
      gy = gb.template ReinterpretCast<float>();
    } else {
      gy = gyf_.Get<float>();
      Cast(gy, gb, RoundMode::CAST_NONE, cg * OWp_);
    }
    LocalTensor<float> acc = acc_.Get<float>(), col = col_.Get<float>(), t = tmp_.Get<float>();
    for (uint64_t kd = 0; kd < g_.KD; ++kd) {
      const int64_t d = (int64_t)(od * g_.sd + kd * g_.dd) - (int64_t)g_.pd;
      if (d < 0 || d >= (int64_t)g_.D) continue;
      for (uint64_t kh = 0; kh < g_.KH; ++kh) {
        const int64_t h = (int64_t)(oh * g_.sh + kh * g_.dh) - (int64_t)g_.ph;
        if (h < 0 || h >= (int64_t)g_.H) continue;
        LocalTensor<T> xb = xQ_.template AllocTensor<T>();
        DataCopyPad(xb, xGm_[(((n * g_.Ci + ci) * g_.D + (uint64_t)d) * g_.H + (uint64_t)h) * g_.W],
                    DataCopyExtParams{1, (uint32_t)(g_.W * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        xQ_.EnQue(xb);
        xb = xQ_.template DeQue<T>();
        LocalTensor<float> xr;
        if constexpr (sizeof(T) == sizeof(float)) {
          xr = xb.template ReinterpretCast<float>();
        } else {
          xr = xf_.Get<float>();
          Cast(xr, xb, RoundMode::CAST_NONE, (uint32_t)g_.W);
        }
        for (uint64_t kw = 0; kw < g_.KW; ++kw) {
          PipeBarrier<PIPE_V>();
          SetFlag<HardEvent::V_S>(0);  // the casts are done and the previous tap's vector reads of col too
          WaitFlag<HardEvent::V_S>(0);
          bool any = false;
          for (uint32_t ow = 0; ow < OW; ++ow) {
            const int64_t w = (int64_t)(ow * g_.sw + kw * g_.dw) - (int64_t)g_.pw;
            const bool in = w >= 0 && w < (int64_t)g_.W;
            col.SetValue(ow, in ? xr.GetValue((uint32_t)w) : 0.0f);
            any |= in;
          }
          if (!any) continue;
          SetFlag<HardEvent::S_V>(0);
          WaitFlag<HardEvent::S_V>(0);
          const uint32_t tap = (uint32_t)((kd * g_.KH + kh) * g_.KW + kw);
          for (uint32_t j = 0; j < cg; ++j) {
            Mul(t, gy[j * OWp_], col, (int32_t)OW);
            PipeBarrier<PIPE_V>();
            Add(acc[(j * taps_ + tap) * OWp_], acc[(j * taps_ + tap) * OWp_], t, (int32_t)OW);
          }
        }
        PipeBarrier<PIPE_V>();
        xQ_.FreeTensor(xb);
      }
    }
    PipeBarrier<PIPE_V>();
    gyQ_.FreeTensor(gb);
  }
  // Fold each (co, tap) accumulator row and write the group's gradients.
  __aicore__ inline void Finish(uint64_t ci, uint64_t c0, uint32_t cg) {
    LocalTensor<float> acc = acc_.Get<float>(), o = out_.Get<float>(), r = red_.Get<float>(), t = tmp_.Get<float>();
    for (uint32_t j = 0; j < cg; ++j)
      for (uint32_t tap = 0; tap < taps_; ++tap) {
        ReduceSum(r, acc[(j * taps_ + tap) * OWp_], t, (int32_t)g_.OW);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
        o.SetValue(j * TPp_ + tap, r.GetValue(0));
        SetFlag<HardEvent::S_V>(0);  // r is rewritten by the next ReduceSum only after the read
        WaitFlag<HardEvent::S_V>(0);
      }
    // gw[c0 + j, ci, :] for j < cg: blocks of taps elements, Ci taps apart in GM
    const DataCopyExtParams p{(uint16_t)cg, (uint32_t)(taps_ * sizeof(T)), 0, (uint32_t)((g_.Ci - 1) * taps_ * sizeof(T)), 0};
    if constexpr (sizeof(T) == sizeof(float)) {
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(gwGm_[(c0 * g_.Ci + ci) * taps_], o.template ReinterpretCast<T>(), p);
    } else {
      LocalTensor<T> ot = outT_.Get<T>();
      SetFlag<HardEvent::S_V>(0);
      WaitFlag<HardEvent::S_V>(0);
      Cast(ot, o, RoundMode::CAST_RINT, cg * TPp_);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(gwGm_[(c0 * g_.Ci + ci) * taps_], ot, p);
    }
    SetFlag<HardEvent::MTE3_V>(0);  // the next unit's Duplicate and SetValues wait for the copy
    WaitFlag<HardEvent::MTE3_V>(0);
    SetFlag<HardEvent::MTE3_S>(0);
    WaitFlag<HardEvent::MTE3_S>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> gyQ_, xQ_;
  TBuf<QuePosition::VECCALC> acc_, col_, tmp_, out_, red_, gyf_, xf_, outT_;
  GlobalTensor<T> xGm_, gyGm_, gwGm_;
  Geo g_;
  uint64_t first_ = 0, count_ = 0;
  uint32_t taps_ = 1, OWp_ = 8, TPp_ = 8;
};

extern "C" __global__ __aicore__ void conv_3d_backprop_filter_custom(
    GM_ADDR x, GM_ADDR gy, GM_ADDR gw, uint64_t N, uint64_t Ci, uint64_t D, uint64_t H, uint64_t W, uint64_t Co, uint64_t KD,
    uint64_t KH, uint64_t KW, uint64_t OD, uint64_t OH, uint64_t OW, uint64_t sd, uint64_t sh, uint64_t sw, uint64_t pd,
    uint64_t ph, uint64_t pw, uint64_t dd, uint64_t dh, uint64_t dw, uint64_t cog, uint64_t unitsPerCore, int32_t dt) {
  Geo g;
  g.N = N, g.Ci = Ci, g.D = D, g.H = H, g.W = W, g.Co = Co, g.KD = KD, g.KH = KH, g.KW = KW, g.OD = OD, g.OH = OH, g.OW = OW;
  g.sd = sd, g.sh = sh, g.sw = sw, g.pd = pd, g.ph = ph, g.pw = pw, g.dd = dd, g.dh = dh, g.dw = dw, g.cog = cog;
  if (dt == 1) {
    KernelConv3dBackpropFilter<half> op;
    op.Init(x, gy, gw, g, unitsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelConv3dBackpropFilter<bfloat16_t> op;
    op.Init(x, gy, gw, g, unitsPerCore);
    op.Process();
  } else {
    KernelConv3dBackpropFilter<float> op;
    op.Init(x, gy, gw, g, unitsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *gy = &a->inputs[1], *gw = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || gy->dtype != x->dtype || gw->dtype != x->dtype || x->ndim != 5 ||
      gy->ndim != 5 || gw->ndim != 5)
    return 1;
  const uint64_t N = (uint64_t)x->shape[0], Ci = (uint64_t)x->shape[1], D = (uint64_t)x->shape[2], H = (uint64_t)x->shape[3],
                 W = (uint64_t)x->shape[4];
  const uint64_t Co = (uint64_t)gy->shape[1], OD = (uint64_t)gy->shape[2], OH = (uint64_t)gy->shape[3], OW = (uint64_t)gy->shape[4];
  const uint64_t KD = (uint64_t)gw->shape[2], KH = (uint64_t)gw->shape[3], KW = (uint64_t)gw->shape[4];
  const uint64_t sd = (uint64_t)kope_attr_or(a, "stride_d", 1), sh = (uint64_t)kope_attr_or(a, "stride_h", 1),
                 sw = (uint64_t)kope_attr_or(a, "stride_w", 1);
  const uint64_t pd = (uint64_t)kope_attr_or(a, "pad_d", 0), ph = (uint64_t)kope_attr_or(a, "pad_h", 0),
                 pw = (uint64_t)kope_attr_or(a, "pad_w", 0);
  const uint64_t dd = (uint64_t)kope_attr_or(a, "dil_d", 1), dh = (uint64_t)kope_attr_or(a, "dil_h", 1),
                 dw = (uint64_t)kope_attr_or(a, "dil_w", 1);
  if (gw->numel == 0) return 0;
  const uint64_t esz = x->dtype == KOPE_F32 ? 4 : 2, taps = KD * KH * KW;
  const uint64_t OWp = (OW * esz + 31) / 32 * 32 / esz, TPp = (taps * esz + 31) / 32 * 32 / esz;
  if (W > XB || OWp > XB || taps * OWp > ACC || OWp > GYB || TPp > OUTB) return 1;  // UB sizes
  uint64_t cog = ACC / (taps * OWp);  // output channels per unit: accumulators, grad_y rows and gradients all fit
  if (cog * OWp > GYB) cog = GYB / OWp;
  if (cog * TPp > OUTB) cog = OUTB / TPp;
  if (Ci < MAX_CORES) {  // few input channels: split the output channels further so every core has a unit
    const uint64_t want = (Co + (MAX_CORES + Ci - 1) / Ci - 1) / ((MAX_CORES + Ci - 1) / Ci);
    if (want < cog) cog = want;
  }
  if (cog > Co) cog = Co;
  if (cog == 0) cog = 1;
  const uint64_t units = Ci * ((Co + cog - 1) / cog);
  const uint32_t blockDim = units < MAX_CORES ? (uint32_t)units : MAX_CORES;
  const uint64_t unitsPerCore = (units + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, pgy = (GM_ADDR)gy->data, pgw = (GM_ADDR)gw->data;
  if (N * OD * OH * OW == 0) return 1;  // an empty sum: not handled (the task has none)
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(conv_3d_backprop_filter_custom, blockDim, px, pgy, pgw, N, Ci, D, H, W, Co, KD, KH, KW, OD, OH, OW, sd, sh, sw, pd,
              ph, pw, dd, dh, dw, cog, unitsPerCore, dt);
#else
  conv_3d_backprop_filter_custom<<<blockDim, nullptr, stream>>>(px, pgy, pgw, N, Ci, D, H, W, Co, KD, KH, KW, OD, OH, OW, sd, sh,
                                                                sw, pd, ph, pw, dd, dh, dw, cog, unitsPerCore, dt);
#endif
  return 0;
}
