// thought: bilinear resize by output rows over the AI cores: the column taps and weights depend only on the output column, so each core tabulates them once in the UB; per output row the two source rows move in with DataCopyPad and each output is four taps and three lerps on the scalar unit, all four taps read as ATen reads them; align_corners and half-pixel source coordinates. x and y in fp32, fp16 or bf16: fp16 and bf16 rows Cast to float in the UB, the lerps in fp32 as for fp32, the row Cast back once (CAST_RINT).
// Written against CANN 8.0 AscendC (kernel_operator.h) for Atlas A2 (Ascend910B, dav-2201: 192 KB UB per core).
#include "kernel_operator.h"
#include "kope_ascend.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif
using namespace AscendC;

constexpr uint32_t WMAX = 4096;     // input and output row lengths held in the UB
constexpr uint32_t MAX_CORES = 40;

// The source coordinate of output index dst (upsample_bilinear2d's rule), in fp32 on the scalar unit.
__aicore__ inline float Source(uint64_t dst, uint64_t in, uint64_t out, int32_t align) {
  if (align) return out > 1 ? (float)dst * (float)(in - 1) / (float)(out - 1) : 0.0f;
  const float s = ((float)dst + 0.5f) * (float)in / (float)out - 0.5f;  // half-pixel centres, clamped at 0
  return s < 0.0f ? 0.0f : s;
}

// Output rows (p, oh) split over the cores. The column taps and weights depend only on the output column, so each
// core tabulates them once in the UB; per output row the two input rows move in with DataCopyPad and every output
// is four taps and three lerps on the scalar unit (all four taps are read, as ATen does: inf or NaN reach an
// output even through a zero weight). T: fp32, or fp16 / bf16, whose rows are Cast to float in the UB and whose
// output row is Cast back once.
template <typename T> class KernelResize {
 public:
  __aicore__ inline KernelResize() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t H, uint64_t W, uint64_t HO, uint64_t WO, int32_t align,
                              uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= NC * HO ? 0 : (NC * HO - first_ < rowsPerCore ? NC * HO - first_ : rowsPerCore);
    H_ = H, W_ = W, HO_ = HO, WO_ = WO, align_ = align;
    xGm_.SetGlobalBuffer((__gm__ T*)x, NC * H * W);
    yGm_.SetGlobalBuffer((__gm__ T*)y, NC * HO * WO);
    pipe_.InitBuffer(top_, WMAX * sizeof(float));
    pipe_.InitBuffer(bot_, WMAX * sizeof(float));
    pipe_.InitBuffer(out_, WMAX * sizeof(float));
    pipe_.InitBuffer(c0_, WMAX * sizeof(int32_t));
    pipe_.InitBuffer(c1_, WMAX * sizeof(int32_t));
    pipe_.InitBuffer(cw_, WMAX * sizeof(float));
    if constexpr (sizeof(T) != sizeof(float)) {  // the 2-byte rows as they move in and out
      pipe_.InitBuffer(topT_, WMAX * sizeof(T));
      pipe_.InitBuffer(botT_, WMAX * sizeof(T));
      pipe_.InitBuffer(outT_, WMAX * sizeof(T));
    }
  }
  __aicore__ inline void Process() {
    LocalTensor<int32_t> c0 = c0_.Get<int32_t>(), c1 = c1_.Get<int32_t>();
    LocalTensor<float> cw = cw_.Get<float>(), top = top_.Get<float>(), bot = bot_.Get<float>(), o = out_.Get<float>();
    for (uint64_t ow = 0; ow < WO_; ++ow) {
      const float s = Source(ow, W_, WO_, align_);
      const int32_t i0 = (int32_t)s;  // s >= 0: truncation is floor
      c0.SetValue((uint32_t)ow, i0);
      c1.SetValue((uint32_t)ow, (uint64_t)(i0 + 1) < W_ ? i0 + 1 : (int32_t)W_ - 1);
      cw.SetValue((uint32_t)ow, s - (float)i0);
    }
    for (uint64_t row = first_; row < first_ + rows_; ++row) {
      const uint64_t p = row / HO_, oh = row % HO_;
      const float s = Source(oh, H_, HO_, align_);
      const uint64_t r0 = (uint64_t)s, r1 = r0 + 1 < H_ ? r0 + 1 : H_ - 1;
      const float lh = s - (float)r0;
      if constexpr (sizeof(T) == sizeof(float)) {
        DataCopyPad(top, xGm_[(p * H_ + r0) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        DataCopyPad(bot, xGm_[(p * H_ + r1) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
      } else {
        LocalTensor<T> tt = topT_.Get<T>(), bt = botT_.Get<T>();
        DataCopyPad(tt, xGm_[(p * H_ + r0) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        DataCopyPad(bt, xGm_[(p * H_ + r1) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(T)), 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, (T)0});
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Cast(top, tt, RoundMode::CAST_NONE, (uint32_t)W_);
        Cast(bot, bt, RoundMode::CAST_NONE, (uint32_t)W_);
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
      }
      for (uint32_t ow = 0; ow < WO_; ++ow) {
        const uint32_t a = (uint32_t)c0.GetValue(ow), b = (uint32_t)c1.GetValue(ow);
        const float lw = cw.GetValue(ow);
        const float t = top.GetValue(a) * (1 - lw) + top.GetValue(b) * lw;
        const float u = bot.GetValue(a) * (1 - lw) + bot.GetValue(b) * lw;
        o.SetValue(ow, t * (1 - lh) + u * lh);
      }
      if constexpr (sizeof(T) == sizeof(float)) {
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopyPad(yGm_[row * WO_], o, DataCopyExtParams{1, (uint32_t)(WO_ * sizeof(float)), 0, 0, 0});
      } else {
        LocalTensor<T> ot = outT_.Get<T>();
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        Cast(ot, o, RoundMode::CAST_RINT, (uint32_t)WO_);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(yGm_[row * WO_], ot, DataCopyExtParams{1, (uint32_t)(WO_ * sizeof(T)), 0, 0, 0});
      }
      SetFlag<HardEvent::MTE3_S>(0);  // the next row may not overwrite o (nor MTE2 top/bot) before this one is out
      WaitFlag<HardEvent::MTE3_S>(0);
      SetFlag<HardEvent::MTE3_V>(0);  // nor the next row's Casts the 2-byte staging rows
      WaitFlag<HardEvent::MTE3_V>(0);
    }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> top_, bot_, out_, c0_, c1_, cw_, topT_, botT_, outT_;
  GlobalTensor<T> xGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, H_ = 1, W_ = 1, HO_ = 1, WO_ = 1;
  int32_t align_ = 0;
};

extern "C" __global__ __aicore__ void resize_bilinear_custom(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t H, uint64_t W, uint64_t HO,
                                                             uint64_t WO, int32_t align, uint64_t rowsPerCore, int32_t dt) {
  if (dt == 1) {
    KernelResize<half> op;
    op.Init(x, y, NC, H, W, HO, WO, align, rowsPerCore);
    op.Process();
  } else if (dt == 2) {
    KernelResize<bfloat16_t> op;
    op.Init(x, y, NC, H, W, HO, WO, align, rowsPerCore);
    op.Process();
  } else {
    KernelResize<float> op;
    op.Init(x, y, NC, H, W, HO, WO, align, rowsPerCore);
    op.Process();
  }
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if ((x->dtype != KOPE_F32 && x->dtype != KOPE_F16 && x->dtype != KOPE_BF16) || y->dtype != x->dtype || x->ndim != 4 ||
      y->ndim != 4)
    return 1;
  const uint64_t NC = (uint64_t)(x->shape[0] * x->shape[1]), H = (uint64_t)x->shape[2], W = (uint64_t)x->shape[3];
  const uint64_t HO = (uint64_t)y->shape[2], WO = (uint64_t)y->shape[3];
  if (W > WMAX || WO > WMAX) return 1;  // a row must fit the UB
  if (NC * HO * WO == 0) return 0;
  const int32_t align = kope_attr_or(a, "align_corners", 0) != 0;
  const uint32_t blockDim = NC * HO < MAX_CORES ? (uint32_t)(NC * HO) : MAX_CORES;
  const uint64_t rowsPerCore = (NC * HO + blockDim - 1) / blockDim;
  const int32_t dt = x->dtype == KOPE_F16 ? 1 : x->dtype == KOPE_BF16 ? 2 : 0;  // 0 fp32, 1 fp16, 2 bf16
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(resize_bilinear_custom, blockDim, px, py, NC, H, W, HO, WO, align, rowsPerCore, dt);
#else
  resize_bilinear_custom<<<blockDim, nullptr, stream>>>(px, py, NC, H, W, HO, WO, align, rowsPerCore, dt);
#endif
  return 0;
}
