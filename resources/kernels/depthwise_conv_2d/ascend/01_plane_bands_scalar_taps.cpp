// thought: depthwise convolution by planes (n, c) over the AI cores: each plane in bands of output rows, the band's input rows (contiguous in NCHW) moving in with one DataCopyPad through a double-buffered queue (fp32, fp16 or bf16: fp16 and bf16 Cast to float in the UB), the plane's KH KW weights and bias read once into scalars; each output is the bias plus its in-bounds taps on the scalar unit in fp32 (strides, padding and dilation are index arithmetic there, where a strided vector gather would not be), and the band's outputs leave in one copy (fp16 and bf16 Cast back once, CAST_RINT).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t IN_MAX = 8192;   // input elements of a band held in the UB
constexpr uint32_t OUT_MAX = 4096;  // output elements of a band
constexpr uint32_t KMAX = 256;      // filter taps per plane (KH KW)
constexpr uint32_t MAX_CORES = 40;

struct ConvShape {
  uint64_t C, H, W, KH, KW, OH, OW, sh, sw, ph, pw, dh, dw, band;  // band: output rows per band
};

template <typename T> class KernelDepthwise {
 public:
  __aicore__ inline KernelDepthwise() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y, const ConvShape& s, uint64_t planes,
                              uint64_t perCore) {
    s_ = s;
    first_ = GetBlockIdx() * perCore;
    count_ = first_ >= planes ? 0 : (planes - first_ < perCore ? planes - first_ : perCore);
    xGm_.SetGlobalBuffer((__gm__ T*)x, planes * s.H * s.W);
    wGm_.SetGlobalBuffer((__gm__ T*)wt, s.C * s.KH * s.KW);
    bGm_.SetGlobalBuffer((__gm__ T*)b, s.C);
    yGm_.SetGlobalBuffer((__gm__ T*)y, planes * s.OH * s.OW);
    pipe_.InitBuffer(inQ_, 2, IN_MAX * sizeof(T));
    pipe_.InitBuffer(outQ_, 2, OUT_MAX * sizeof(T));
    pipe_.InitBuffer(xf_, IN_MAX * sizeof(float));
    pipe_.InitBuffer(yf_, OUT_MAX * sizeof(float));
    pipe_.InitBuffer(wT_, (KMAX + 16) * sizeof(T));
    pipe_.InitBuffer(wf_, (KMAX + 16) * sizeof(float));
  }
  __aicore__ inline void Process() {
    for (uint64_t p = first_; p < first_ + count_; ++p) {
      const uint64_t c = p % s_.C;
      LoadFilter(c);
      for (uint64_t oh0 = 0; oh0 < s_.OH; oh0 += s_.band) {
        const uint64_t oh1 = oh0 + s_.band < s_.OH ? oh0 + s_.band : s_.OH;
        // input rows the band reads, clamped to x: [hs, he)
        const int64_t lo = (int64_t)(oh0 * s_.sh) - (int64_t)s_.ph;
        const int64_t hi = (int64_t)((oh1 - 1) * s_.sh + (s_.KH - 1) * s_.dh) - (int64_t)s_.ph + 1;
        const int64_t hs = lo < 0 ? 0 : lo, he = hi > (int64_t)s_.H ? (int64_t)s_.H : hi;
        LocalTensor<float> xf = LoadRows(p, hs, he);
        Band(xf, p, oh0, oh1, hs, he);
      }
    }
  }

 private:
  __aicore__ inline void LoadFilter(uint64_t c) {
    const uint32_t k = (uint32_t)(s_.KH * s_.KW);
    LocalTensor<T> wt = wT_.Get<T>();
    LocalTensor<float> wf = wf_.Get<float>();
    DataCopyPad(wt, wGm_[c * k], DataCopyExtParams{1, (uint32_t)(k * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    DataCopyPad(wt[KMAX], bGm_[c], DataCopyExtParams{1, (uint32_t)sizeof(T), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    SetFlag<HardEvent::MTE2_S>(0);
    WaitFlag<HardEvent::MTE2_S>(0);
    for (uint32_t i = 0; i < k; ++i) wf.SetValue(i, (float)wt.GetValue(i));
    bias_ = (float)wt.GetValue(KMAX);
  }
  // Rows [hs, he) of plane p as float (xf_).
  __aicore__ inline LocalTensor<float> LoadRows(uint64_t p, int64_t hs, int64_t he) {
    LocalTensor<float> xf = xf_.Get<float>();
    if (he <= hs) return xf;  // the band's windows lie wholly in the padding
    const uint32_t n = (uint32_t)((uint64_t)(he - hs) * s_.W);
    LocalTensor<T> xb = inQ_.template AllocTensor<T>();
    DataCopyPad(xb, xGm_[(p * s_.H + (uint64_t)hs) * s_.W], DataCopyExtParams{1, (uint32_t)(n * sizeof(T)), 0, 0, 0},
                DataCopyPadExtParams<T>{false, 0, 0, (T)0});
    inQ_.EnQue(xb);
    xb = inQ_.template DeQue<T>();
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(xf, xb.template ReinterpretCast<float>(), (n + 7) / 8 * 8);
    else Cast(xf, xb, RoundMode::CAST_NONE, n);
    inQ_.FreeTensor(xb);
    SetFlag<HardEvent::V_S>(0);
    WaitFlag<HardEvent::V_S>(0);
    return xf;
  }
  __aicore__ inline void Band(const LocalTensor<float>& xf, uint64_t p, uint64_t oh0, uint64_t oh1, int64_t hs, int64_t he) {
    LocalTensor<float> wf = wf_.Get<float>(), yf = yf_.Get<float>();
    const int64_t W = (int64_t)s_.W;
    uint32_t i = 0;
    for (uint64_t oh = oh0; oh < oh1; ++oh)
      for (uint64_t ow = 0; ow < s_.OW; ++ow, ++i) {
        float sum = bias_;
        const int64_t h0 = (int64_t)(oh * s_.sh) - (int64_t)s_.ph, w0 = (int64_t)(ow * s_.sw) - (int64_t)s_.pw;
        for (uint64_t kh = 0; kh < s_.KH; ++kh) {
          const int64_t h = h0 + (int64_t)(kh * s_.dh);
          if (h < hs || h >= he) continue;
          const uint32_t row = (uint32_t)((h - hs) * W);
          for (uint64_t kw = 0; kw < s_.KW; ++kw) {
            const int64_t w = w0 + (int64_t)(kw * s_.dw);
            if (w < 0 || w >= W) continue;
            sum += wf.GetValue((uint32_t)(kh * s_.KW + kw)) * xf.GetValue(row + (uint32_t)w);
          }
        }
        yf.SetValue(i, sum);
      }
    LocalTensor<T> yb = outQ_.template AllocTensor<T>();
    SetFlag<HardEvent::S_V>(0);
    WaitFlag<HardEvent::S_V>(0);
    if constexpr (sizeof(T) == sizeof(float)) DataCopy(yb.template ReinterpretCast<float>(), yf, (i + 7) / 8 * 8);
    else Cast(yb, yf, RoundMode::CAST_RINT, i);
    outQ_.EnQue(yb);
    yb = outQ_.template DeQue<T>();
    DataCopyPad(yGm_[(p * s_.OH + oh0) * s_.OW], yb, DataCopyExtParams{1, (uint32_t)(i * sizeof(T)), 0, 0, 0});
    outQ_.FreeTensor(yb);
    SetFlag<HardEvent::MTE3_S>(0);  // yf is rewritten by the next band's scalar stores only after this copy
    WaitFlag<HardEvent::MTE3_S>(0);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inQ_;
  TQue<QuePosition::VECOUT, 2> outQ_;
  TBuf<QuePosition::VECCALC> xf_, yf_, wT_, wf_;
  GlobalTensor<T> xGm_, wGm_, bGm_, yGm_;
  ConvShape s_;
  uint64_t first_ = 0, count_ = 0;
  float bias_ = 0.0f;
};

// The shape and attributes go as scalars (a kernel's arguments are addresses and scalars) and are gathered here.
extern "C" __global__ __aicore__ void depthwise_conv_2d_custom(GM_ADDR x, GM_ADDR wt, GM_ADDR b, GM_ADDR y, uint64_t C, uint64_t H,
                                                               uint64_t W, uint64_t KH, uint64_t KW, uint64_t OH, uint64_t OW,
                                                               uint64_t sh, uint64_t sw, uint64_t ph, uint64_t pw, uint64_t dh,
                                                               uint64_t dw, uint64_t band, uint64_t planes, uint64_t perCore,
                                                               int32_t dt) {
  ConvShape s;
  s.C = C, s.H = H, s.W = W, s.KH = KH, s.KW = KW, s.OH = OH, s.OW = OW, s.sh = sh, s.sw = sw, s.ph = ph, s.pw = pw;
  s.dh = dh, s.dw = dw, s.band = band;
  if (dt == 1) {
    KernelDepthwise<half> op;
    op.Init(x, wt, b, y, s, planes, perCore);
    op.Process();
  } else if (dt == 2) {
    KernelDepthwise<bfloat16_t> op;
    op.Init(x, wt, b, y, s, planes, perCore);
    op.Process();
  } else {
    KernelDepthwise<float> op;
    op.Init(x, wt, b, y, s, planes, perCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *w = &a->inputs[1], *b = &a->inputs[2], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || w->dtype != x->dtype || b->dtype != x->dtype ||
      y->dtype != x->dtype || x->ndim != 4 || w->ndim != 4 || y->ndim != 4)
    return 1;
  ConvShape s;
  s.C = (uint64_t)x->shape[1], s.H = (uint64_t)x->shape[2], s.W = (uint64_t)x->shape[3];
  s.KH = (uint64_t)w->shape[2], s.KW = (uint64_t)w->shape[3], s.OH = (uint64_t)y->shape[2], s.OW = (uint64_t)y->shape[3];
  s.sh = (uint64_t)kope_attr_or(a, "stride_h", 1), s.sw = (uint64_t)kope_attr_or(a, "stride_w", 1);
  s.ph = (uint64_t)kope_attr_or(a, "pad_h", 0), s.pw = (uint64_t)kope_attr_or(a, "pad_w", 0);
  s.dh = (uint64_t)kope_attr_or(a, "dil_h", 1), s.dw = (uint64_t)kope_attr_or(a, "dil_w", 1);
  const uint64_t planes = (uint64_t)(x->shape[0] * x->shape[1]);
  if (planes * s.OH * s.OW == 0) return 0;
  if (s.KH * s.KW > KMAX || s.OW > OUT_MAX) return 1;
  // Output rows per band: as many as both the output and the input buffers hold.
  uint64_t band = OUT_MAX / s.OW;
  while (band > 0 && ((band - 1) * s.sh + (s.KH - 1) * s.dh + 1) * s.W > IN_MAX) --band;
  if (band == 0) return 1;  // one output row's input rows do not fit the UB
  s.band = band < s.OH ? band : s.OH;
  const uint32_t blockDim = planes < MAX_CORES ? (uint32_t)planes : MAX_CORES;
  const uint64_t perCore = (planes + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, pw = (GM_ADDR)w->data, pb = (GM_ADDR)b->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(depthwise_conv_2d_custom, blockDim, px, pw, pb, py, s.C, s.H, s.W, s.KH, s.KW, s.OH, s.OW, s.sh, s.sw, s.ph, s.pw,
              s.dh, s.dw, s.band, planes, perCore, dt);
#else
  depthwise_conv_2d_custom<<<blockDim, nullptr, stream>>>(px, pw, pb, py, s.C, s.H, s.W, s.KH, s.KW, s.OH, s.OW, s.sh, s.sw, s.ph,
                                                          s.pw, s.dh, s.dw, s.band, planes, perCore, dt);
#endif
  return 0;
}
