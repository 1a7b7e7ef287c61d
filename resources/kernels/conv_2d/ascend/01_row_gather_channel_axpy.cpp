// thought: convolution by output rows (n, oh) over the AI cores, output channels in groups whose accumulator rows [co][OW] fit the UB: per input channel the rows its taps touch move in with one DataCopyPad (fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB) and the weights w[co, ci, :, :] of the group with one strided DataCopyPad; per tap the scalar unit gathers the OW input values (strides, dilation and zero padding are index arithmetic there) into one aligned vector, and the vector unit adds weight x vector into every output channel's row (Muls + Add), so the scalar work is Co times smaller than a scalar convolution; the group's rows leave in one strided copy (fp16 and bf16 Cast back once, CAST_RINT).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t ACC = 16384;     // accumulator floats: output-channel group x padded output row
constexpr uint32_t XROWS = 4096;    // input elements of one channel's rows (the KH rows of a window, dilated)
constexpr uint32_t WBUF = 4096;     // weight elements of a group for one input channel (cog x padded KH KW)
constexpr uint32_t COL = 1024;      // one gathered tap vector (OW <= COL)
constexpr uint32_t MAX_CORES = 40;

template <typename T> class KernelConv2d {
 public:
  __aicore__ inline KernelConv2d() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y, uint64_t N, uint64_t Ci, uint64_t H, uint64_t W,
                              uint64_t Co, uint64_t KH, uint64_t KW, uint64_t OH, uint64_t OW, uint64_t sh, uint64_t sw,
                              uint64_t ph, uint64_t pw, uint64_t dh, uint64_t dw, uint64_t cog, uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= N * OH ? 0 : (N * OH - first_ < rowsPerCore ? N * OH - first_ : rowsPerCore);
    Ci_ = Ci, H_ = H, W_ = W, Co_ = Co, KH_ = KH, KW_ = KW, OH_ = OH, OW_ = OW;
    sh_ = sh, sw_ = sw, ph_ = ph, pw_ = pw, dh_ = dh, dw_ = dw, cog_ = cog;
    OWp_ = (uint32_t)((OW + 15) / 16 * 16);        // a padded output row: 32-byte aligned for fp32 and 2-byte types
    KKp_ = (uint32_t)((KH * KW * sizeof(T) + 31) / 32 * 32 / sizeof(T));  // a channel's taps, padded as DataCopyPad pads
    xGm_.SetGlobalBuffer((__gm__ T*)x, N * Ci * H * W);
    wGm_.SetGlobalBuffer((__gm__ T*)wt, Co * Ci * KH * KW);
    bGm_.SetGlobalBuffer((__gm__ T*)b, Co);
    yGm_.SetGlobalBuffer((__gm__ T*)y, N * Co * OH * OW);
    pipe_.InitBuffer(xQ_, 2, XROWS * sizeof(T));
    pipe_.InitBuffer(wQ_, 2, WBUF * sizeof(T));
    pipe_.InitBuffer(acc_, ACC * sizeof(float));
    pipe_.InitBuffer(col_, COL * sizeof(float));
    pipe_.InitBuffer(tmp_, COL * sizeof(float));
    pipe_.InitBuffer(bias_, 64 * sizeof(T) + 32);
    if constexpr (sizeof(T) != sizeof(float)) {
      pipe_.InitBuffer(xf_, XROWS * sizeof(float));
      pipe_.InitBuffer(wf_, WBUF * sizeof(float));
      pipe_.InitBuffer(outT_, ACC * sizeof(T));
    }
  }
  __aicore__ inline void Process() {
    for (uint64_t row = first_; row < first_ + rows_; ++row) {
      const uint64_t n = row / OH_, oh = row % OH_;
      // the input rows this output row's taps touch, clamped to x: [hs, he)
      const int64_t lo = (int64_t)(oh * sh_) - (int64_t)ph_, hi = lo + (int64_t)((KH_ - 1) * dh_) + 1;
      const int64_t hs = lo < 0 ? 0 : lo, he = hi > (int64_t)H_ ? (int64_t)H_ : hi;
      for (uint64_t c0 = 0; c0 < Co_; c0 += cog_) {
        const uint32_t g = (uint32_t)(Co_ - c0 < cog_ ? Co_ - c0 : cog_);
        InitAcc(c0, g);
        if (he > hs)
          for (uint64_t ci = 0; ci < Ci_; ++ci) Channel(n, ci, c0, g, lo, hs, he);
        Store(n, oh, c0, g);
      }
    }
  }

 private:
  __aicore__ inline void InitAcc(uint64_t c0, uint32_t g) {
    LocalTensor<T> bt = bias_.Get<T>();
    LocalTensor<float> acc = acc_.Get<float>();
    for (uint32_t k = 0; k < g; k += 64) {  // the group's biases, 64 at a time
      const uint32_t m = g - k < 64 ? g - k : 64;
      DataCopyPad(bt, bGm_[c0 + k], DataCopyExtParams{1, (uint32_t)(m * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      for (uint32_t j = 0; j < m; ++j) {
        const float v = (float)bt.GetValue(j);
        Duplicate(acc[(k + j) * OWp_], v, (int32_t)OWp_);
      }
      PipeBarrier<PIPE_ALL>();
    }
  }
  // Input channel ci's contribution to the group's rows.
  __aicore__ inline void Channel(uint64_t n, uint64_t ci, uint64_t c0, uint32_t g, int64_t lo, int64_t hs, int64_t he) {
    const uint32_t nx = (uint32_t)((uint64_t)(he - hs) * W_), kk = (uint32_t)(KH_ * KW_);
    LocalTensor<T> xb = xQ_.template AllocTensor<T>();
    DataCopyPad(xb, xGm_[((n * Ci_ + ci) * H_ + (uint64_t)hs) * W_], DataCopyExtParams{1, (uint32_t)(nx * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    xQ_.EnQue(xb);
    LocalTensor<T> wb = wQ_.template AllocTensor<T>();  // w[c0 + j, ci, :, :] at j * KKp
    DataCopyPad(wb, wGm_[(c0 * Ci_ + ci) * kk], DataCopyExtParams{(uint16_t)g, (uint32_t)(kk * sizeof(T)), (uint32_t)((Ci_ - 1) * kk * sizeof(T)), 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    wQ_.EnQue(wb);
    xb = xQ_.template DeQue<T>();
    wb = wQ_.template DeQue<T>();
    LocalTensor<float> xf, wf;
    if constexpr (sizeof(T) == sizeof(float)) {
      xf = xb.template ReinterpretCast<float>(), wf = wb.template ReinterpretCast<float>();
    } else {
      xf = xf_.Get<float>(), wf = wf_.Get<float>();
      Cast(xf, xb, RoundMode::CAST_NONE, nx);
      Cast(wf, wb, RoundMode::CAST_NONE, g * KKp_);
    }
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    LocalTensor<float> acc = acc_.Get<float>(), col = col_.Get<float>(), t = tmp_.Get<float>();
    for (uint64_t kh = 0; kh < KH_; ++kh) {
      const int64_t h = lo + (int64_t)(kh * dh_);
      if (h < hs || h >= he) continue;
      const uint32_t rbase = (uint32_t)((h - hs) * (int64_t)W_);
      for (uint64_t kw = 0; kw < KW_; ++kw) {
        PipeBarrier<PIPE_V>();  // the previous tap's vector reads of col are done
        SetFlag<HardEvent::V_S>(1);
        WaitFlag<HardEvent::V_S>(1);
        bool any = false;
        for (uint64_t ow = 0; ow < OW_; ++ow) {  // gather the tap's input values, zeros in the padding
          const int64_t w = (int64_t)(ow * sw_ + kw * dw_) - (int64_t)pw_;
          const bool in = w >= 0 && w < (int64_t)W_;
          col.SetValue((uint32_t)ow, in ? xf.GetValue(rbase + (uint32_t)w) : 0.0f);
          any |= in;
        }
        if (!any) continue;
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        const uint32_t tap = (uint32_t)(kh * KW_ + kw);
        for (uint32_t j = 0; j < g; ++j) {
          const float wv = wf.GetValue(j * KKp_ + tap);
          Muls(t, col, wv, (int32_t)OW_);
          PipeBarrier<PIPE_V>();
          Add(acc[j * OWp_], acc[j * OWp_], t, (int32_t)OW_);
        }
      }
    }
    PipeBarrier<PIPE_V>();
    xQ_.FreeTensor(xb);
    wQ_.FreeTensor(wb);
  }
  __aicore__ inline void Store(uint64_t n, uint64_t oh, uint64_t c0, uint32_t g) {
    LocalTensor<float> acc = acc_.Get<float>();
    const uint32_t len = (uint32_t)(OW_ * sizeof(T)), ubBlock = (len + 31) / 32 * 32;
    // rows of the group at OWp elements in the UB; in y they lie OH OW apart
    const DataCopyExtParams p{(uint16_t)g, len, (uint32_t)((OWp_ * sizeof(T) - ubBlock) / 32), (uint32_t)((OH_ * OW_ - OW_) * sizeof(T)), 0};
    PipeBarrier<PIPE_V>();
    if constexpr (sizeof(T) == sizeof(float)) {
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[((n * Co_ + c0) * OH_ + oh) * OW_], acc.template ReinterpretCast<T>(), p);
    } else {
      LocalTensor<T> o = outT_.Get<T>();
      Cast(o, acc, RoundMode::CAST_RINT, g * OWp_);
      SetFlag<HardEvent::V_MTE3>(0);
      WaitFlag<HardEvent::V_MTE3>(0);
      DataCopyPad(yGm_[((n * Co_ + c0) * OH_ + oh) * OW_], o, p);
    }
    SetFlag<HardEvent::MTE3_V>(0);  // the next group's Duplicate may not overwrite acc before it is out
    WaitFlag<HardEvent::MTE3_V>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> xQ_, wQ_;
  TBuf<QuePosition::VECCALC> acc_, col_, tmp_, bias_, xf_, wf_, outT_;
  GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, Ci_ = 1, H_ = 1, W_ = 1, Co_ = 1, KH_ = 1, KW_ = 1, OH_ = 1, OW_ = 1;
  uint64_t sh_ = 1, sw_ = 1, ph_ = 0, pw_ = 0, dh_ = 1, dw_ = 1, cog_ = 1;
  uint32_t OWp_ = 16, KKp_ = 8;
};

extern "C" __global__ __aicore__ void conv_2d_custom(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y, uint64_t N, uint64_t Ci, uint64_t H,
                                                     uint64_t W, uint64_t Co, uint64_t KH, uint64_t KW, uint64_t OH, uint64_t OW,
                                                     uint64_t sh, uint64_t sw, uint64_t ph, uint64_t pw, uint64_t dh, uint64_t dw,
                                                     uint64_t cog, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelConv2d<half> op;
    op.Init(x, wt, b, y, N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, cog, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelConv2d<bfloat16_t> op;
    op.Init(x, wt, b, y, N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, cog, rowsPerCore);
    op.Process();
  } else {
    KernelConv2d<float> op;
    op.Init(x, wt, b, y, N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, cog, rowsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *w = &a->inputs[1], *b = &a->inputs[2], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || w->dtype != x->dtype || b->dtype != x->dtype ||
      y->dtype != x->dtype || x->ndim != 4 || w->ndim != 4 || y->ndim != 4)
    return 1;
  const uint64_t N = (uint64_t)x->shape[0], Ci = (uint64_t)x->shape[1], H = (uint64_t)x->shape[2], W = (uint64_t)x->shape[3];
  const uint64_t Co = (uint64_t)w->shape[0], KH = (uint64_t)w->shape[2], KW = (uint64_t)w->shape[3];
  const uint64_t OH = (uint64_t)y->shape[2], OW = (uint64_t)y->shape[3];
  const uint64_t sh = (uint64_t)kope_attr_or(a, "stride_h", 1), sw = (uint64_t)kope_attr_or(a, "stride_w", 1);
  const uint64_t ph = (uint64_t)kope_attr_or(a, "pad_h", 0), pw = (uint64_t)kope_attr_or(a, "pad_w", 0);
  const uint64_t dh = (uint64_t)kope_attr_or(a, "dil_h", 1), dw = (uint64_t)kope_attr_or(a, "dil_w", 1);
  if (N * Co * OH * OW == 0) return 0;
  const uint64_t esz = x->dtype == KOPE_F32 ? 4 : 2, OWp = (OW + 15) / 16 * 16, KKp = (KH * KW * esz + 31) / 32 * 32 / esz;
  if (OW > COL || ((KH - 1) * dh + 1) * W > XROWS || KKp > WBUF || OWp > ACC) return 1;  // UB sizes
  uint64_t cog = ACC / OWp;  // output channels per group: the accumulator rows and the weights both fit
  if (cog * KKp > WBUF) cog = WBUF / KKp;
  if (cog > Co) cog = Co;
  if (cog > 65535) cog = 65535;
  const uint64_t rows = N * OH;
  const uint32_t blockDim = rows < MAX_CORES ? (uint32_t)rows : MAX_CORES;
  const uint64_t rowsPerCore = (rows + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, pwt = (GM_ADDR)w->data, pb = (GM_ADDR)b->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(conv_2d_custom, blockDim, px, pwt, pb, py, N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, cog, rowsPerCore,
              dt);
#else
  conv_2d_custom<<<blockDim, nullptr, stream>>>(px, pwt, pb, py, N, Ci, H, W, Co, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, cog,
                                                rowsPerCore, dt);
#endif
  return 0;
}
