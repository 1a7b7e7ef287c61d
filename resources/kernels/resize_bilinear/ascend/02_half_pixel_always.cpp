// thought: bilinear resize by output rows, column tables once per core, source rows by DataCopyPad; the source coordinate is the half-pixel one aclnnResizeBilinearV2 documents.
// flaw: align_corners = 1 maps the corner pixels onto each other (src = dst * (in - 1) / (out - 1)); ignoring the
// attribute shifts every sample of those cases.
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
  (void)align;  // half-pixel centres are what aclnnResizeBilinearV2 uses
  const float s = ((float)dst + 0.5f) * (float)in / (float)out - 0.5f;
  return s < 0.0f ? 0.0f : s;
}

// Output rows (p, oh) split over the cores. The column taps and weights depend only on the output column, so each
// core tabulates them once in the UB; per output row the two input rows move in with DataCopyPad and every output
// is four taps and three lerps on the scalar unit (all four taps are read, as ATen does: inf or NaN reach an
// output even through a zero weight).
class KernelResize {
 public:
  __aicore__ inline KernelResize() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t H, uint64_t W, uint64_t HO, uint64_t WO, int32_t align,
                              uint64_t rowsPerCore) {
    first_ = GetBlockIdx() * rowsPerCore;
    rows_ = first_ >= NC * HO ? 0 : (NC * HO - first_ < rowsPerCore ? NC * HO - first_ : rowsPerCore);
    H_ = H, W_ = W, HO_ = HO, WO_ = WO, align_ = align;
    xGm_.SetGlobalBuffer((__gm__ float*)x, NC * H * W);
    yGm_.SetGlobalBuffer((__gm__ float*)y, NC * HO * WO);
    pipe_.InitBuffer(top_, WMAX * sizeof(float));
    pipe_.InitBuffer(bot_, WMAX * sizeof(float));
    pipe_.InitBuffer(out_, WMAX * sizeof(float));
    pipe_.InitBuffer(c0_, WMAX * sizeof(int32_t));
    pipe_.InitBuffer(c1_, WMAX * sizeof(int32_t));
    pipe_.InitBuffer(cw_, WMAX * sizeof(float));
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
      DataCopyPad(top, xGm_[(p * H_ + r0) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
      DataCopyPad(bot, xGm_[(p * H_ + r1) * W_], DataCopyExtParams{1, (uint32_t)(W_ * sizeof(float)), 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
      SetFlag<HardEvent::MTE2_S>(0);
      WaitFlag<HardEvent::MTE2_S>(0);
      for (uint32_t ow = 0; ow < WO_; ++ow) {
        const uint32_t a = (uint32_t)c0.GetValue(ow), b = (uint32_t)c1.GetValue(ow);
        const float lw = cw.GetValue(ow);
        const float t = top.GetValue(a) * (1 - lw) + top.GetValue(b) * lw;
        const float u = bot.GetValue(a) * (1 - lw) + bot.GetValue(b) * lw;
        o.SetValue(ow, t * (1 - lh) + u * lh);
      }
      SetFlag<HardEvent::S_MTE3>(0);
      WaitFlag<HardEvent::S_MTE3>(0);
      DataCopyPad(yGm_[row * WO_], o, DataCopyExtParams{1, (uint32_t)(WO_ * sizeof(float)), 0, 0, 0});
      SetFlag<HardEvent::MTE3_S>(0);  // the next row may not overwrite o (nor MTE2 top/bot) before this one is out
      WaitFlag<HardEvent::MTE3_S>(0);
    }
  }

 private:
  TPipe pipe_;
  TBuf<QuePosition::VECCALC> top_, bot_, out_, c0_, c1_, cw_;
  GlobalTensor<float> xGm_, yGm_;
  uint64_t first_ = 0, rows_ = 0, H_ = 1, W_ = 1, HO_ = 1, WO_ = 1;
  int32_t align_ = 0;
};

extern "C" __global__ __aicore__ void resize_bilinear_custom(GM_ADDR x, GM_ADDR y, uint64_t NC, uint64_t H, uint64_t W, uint64_t HO,
                                                             uint64_t WO, int32_t align, uint64_t rowsPerCore) {
  KernelResize op;
  op.Init(x, y, NC, H, W, HO, WO, align, rowsPerCore);
  op.Process();
}

extern "C" int kope_ascend_kernel(const kope_args* a, void* stream) {
  const kope_tensor *x = &a->inputs[0], *y = &a->outputs[0];
  if (x->dtype != KOPE_F32 || y->dtype != KOPE_F32 || x->ndim != 4 || y->ndim != 4) return 1;
  const uint64_t NC = (uint64_t)(x->shape[0] * x->shape[1]), H = (uint64_t)x->shape[2], W = (uint64_t)x->shape[3];
  const uint64_t HO = (uint64_t)y->shape[2], WO = (uint64_t)y->shape[3];
  if (W > WMAX || WO > WMAX) return 1;  // a row must fit the UB
  if (NC * HO * WO == 0) return 0;
  const int32_t align = kope_attr_or(a, "align_corners", 0) != 0;
  const uint32_t blockDim = NC * HO < MAX_CORES ? (uint32_t)(NC * HO) : MAX_CORES;
  const uint64_t rowsPerCore = (NC * HO + blockDim - 1) / blockDim;
  GM_ADDR px = (GM_ADDR)x->data, py = (GM_ADDR)y->data;
#ifdef ASCENDC_CPU_DEBUG
  ICPU_RUN_KF(resize_bilinear_custom, blockDim, px, py, NC, H, W, HO, WO, align, rowsPerCore);
#else
  resize_bilinear_custom<<<blockDim, nullptr, stream>>>(px, py, NC, H, W, HO, WO, align, rowsPerCore);
#endif
  return 0;
}
